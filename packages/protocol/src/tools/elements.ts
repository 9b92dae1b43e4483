/** Schemas of element-addressed actions (fill, hover, select, check, scroll, drag, upload). */
export const ELEMENT_TOOLS = {} as const;
