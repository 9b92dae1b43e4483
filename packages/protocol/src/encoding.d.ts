// The protocol package runs in Node and in the extension's service worker; both have the WHATWG
// encoding API, but it lives in neither ES lib nor a platform-neutral @types package.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}
