/** A stylesheet imported by a library fixture arrives as its text (e2e/libFixtures.ts bundles `.css` with the text loader). */
declare module '*.css' {
  const text: string;
  export default text;
}
