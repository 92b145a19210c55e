// Type-checked by `tsc --noEmit` in scripts/test: what a TypeScript project writes against the package.
import {
  segments, simulate, validateSend, normalizeNumber, nextAllowedSend, signWebhook, verifyWebhook, decode, encode, toGsm, toGsmAll,
  type GsmText, type GsmTexts, type Segments, type SimulationResult, type Validation, type FilterContext, type OutcomeName,
} from "../../core/pkg-node/texto_core.js";

const split: Segments = segments("Bonjour François", { pushtype: "marketing" });
const encoding: "gsm7" | "ucs2" = split.encoding;
const parts: number = split.parts + split.perPart + split.remaining + split.length;
const offenders: string[] = split.unicodeChars;
const flag: Segments = segments("Bonjour", true);

const context: FilterContext = { balance: 100, blacklist: ["33611111111"], prices: { FR: 1, other: 2.5 } };
const result: SimulationResult = simulate('{"sms":{}}', "json", context, new Date());
const first: OutcomeName | undefined = result.outcomeNames[result.outcomes[0] ?? 0];
const check: Validation = validateSend("<sms/>", "xml", { endpoint: "simulate", now: Date.now() });
const paths: string[] = check.errors.map((e) => e.path);
const number: string = normalizeNumber("06 12 34 56 78", "FR");
const when: Date = nextAllowedSend("marketing", "2026-11-22T21:00:00Z");
const ok: boolean = verifyWebhook("k", "1", signWebhook("k", 1, "{}"), "{}", undefined, 300);
const xml: string = encode(decode("{}", "json", "status"), "xml");
const gsm: GsmText = toGsm("Fête");
const twin: string | undefined = gsm.twins[0]?.to;
const saved: number | undefined = result.parts_saved;
const many: GsmTexts = toGsmAll(["Fête", "Noël"]);
const counts: Uint32Array = many.replaced;
const capped: number | undefined = result.capped;

export { encoding, parts, offenders, flag, first, paths, number, when, ok, xml, twin, saved, counts, capped };
