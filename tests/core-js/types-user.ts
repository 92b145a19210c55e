// Type-checked by `tsc --noEmit` in scripts/test: what a TypeScript project writes against the package.
import { segments, type Segments } from "../../core/pkg-node/texto_core.js";

const split: Segments = segments("Bonjour François", false);
const encoding: "gsm7" | "ucs2" = split.encoding;
const parts: number = split.parts + split.perPart + split.remaining + split.length;
const offenders: string[] = split.unicodeChars;
const withDefault: Segments = segments("Bonjour");

export { encoding, parts, offenders, withDefault };
