import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { core } from "./package.mjs";

const fixture = (name) => readFileSync(new URL(`../../core/tests/fixtures/${name}`, import.meta.url), "utf8");
const NOW = "2026-11-21T10:00:00Z"; // a Saturday, 11:00 in Paris

test("decode reads XML into the JSON form, attributes and CDATA included", () => {
  const doc = core.decode(fixture("send_shorturl.request.xml"), "xml");
  assert.equal(doc.sms.message.text.trim(), "Message via API with a first link : <-short-> and a second one : <-short->");
  assert.deepEqual(doc.sms.message.links, ["https://youtu.be/dQw4w9WgXcQ", "https://youtu.be/X61BVv6pLtw"]);
  assert.deepEqual(doc.sms.recipients.gsm[0], { value: "33612345678", gsmsmsid: "100" });
});

test("decode tells responses apart by their fields, or takes the kind", () => {
  assert.equal(core.decode(fixture("npai.response.xml"), "xml").list[0].batch_id, null);
  assert.equal(core.decode(fixture("send.response.json"), "json").ticket, "14672468");
  assert.equal(core.decode('{"status":1,"message":"OK"}', "json", "status").status, 1);
});

test("encode writes the public XML shape", () => {
  const xml = core.encode({ sms: { message: { text: "a < b", pushtype: "alert" }, recipients: { gsm: [{ value: "33612345678", gsmsmsid: "7" }] } } }, "xml");
  assert.match(xml, /<sms><message><text><!\[CDATA\[a < b\]\]><\/text>/);
  assert.match(xml, /<gsm gsmsmsid="7">33612345678<\/gsm>/);
  assert.deepEqual(core.decode(xml, "xml").sms.recipients.gsm, [{ value: "33612345678", gsmsmsid: "7" }]);
});

test("malformed bodies throw an Error that says where", () => {
  assert.throws(() => core.decode('{"sms": {"message": ', "json"), /JSON error/);
  assert.throws(() => core.decode('<!DOCTYPE x [<!ENTITY a "b">]><sms/>', "xml"), /DOCTYPE/);
  assert.throws(() => core.decode("{}", "yaml"), /format must be/);
});

test("validateSend returns problems as data", () => {
  const bad = core.validateSend('{"sms":{"message":{"pushtype":"promo"}}}', "json", { now: NOW });
  assert.equal(bad.ok, false);
  assert.equal(bad.status, -7);
  assert.deepEqual(bad.errors.map((e) => e.path), ["sms.message.text", "sms.message.pushtype", "sms.recipients.gsm"]);

  const good = core.validateSend(fixture("send.request.xml"), "xml", { now: NOW });
  assert.equal(good.ok, true);
  assert.equal(good.summary.recipients, 2);
  assert.equal(good.summary.delay, null, "a delay in the past sends now");
  assert.equal(good.summary.segments.parts, 1);

  const delay = core.validateSend('{"sms":{"message":{"text":"Hi","pushtype":"alert","delay":"2026-03-29 02:30:00"},"recipients":{"gsm":[{"value":"1"}]}}}', "json", { now: NOW });
  assert.equal(delay.status, -4);
});

test("bodies with any text cross into wasm intact: accents, emoji, a lone surrogate", () => {
  const body = (text) => JSON.stringify({ sms: { message: { text, pushtype: "alert" }, recipients: { gsm: [{ value: "33612345678" }] } } });
  const accents = core.validateSend(body("Soldes -20€ chez François"), "json", { now: NOW });
  assert.deepEqual([accents.ok, accents.summary.segments.encoding, accents.summary.segments.length], [true, "ucs2", 25]);
  // Non-ASCII first, then a long ASCII tail: the copy restarts after the first non-ASCII unit.
  const mixed = core.validateSend(body("🎉" + "a".repeat(200)), "json", { now: NOW });
  assert.deepEqual([mixed.summary.segments.encoding, mixed.summary.segments.length, mixed.summary.segments.parts], ["ucs2", 202, 4]);
  // A raw lone surrogate in the wire text (JSON.stringify would escape it).
  const raw = '{"sms":{"message":{"text":"x\uD800y","pushtype":"alert"},"recipients":{"gsm":[{"value":"33612345678"}]}}}';
  const lone = core.simulate(raw, "json", { balance: 10 }, NOW);
  assert.equal(lone.sent, 1, "a lone surrogate is sent as U+FFFD, not refused");
  assert.throws(() => core.simulate(42, "json", { balance: 10 }, NOW), /must be a string/);
});

test("segments accepts options: marketing adds the STOP text, short links count in full", () => {
  assert.equal(core.segments("a".repeat(150), { pushtype: "marketing" }).parts, 2);
  assert.equal(core.segments("a".repeat(150), false).parts, 1);
  assert.equal(core.segments("Go <-short->", { publicUrl: "https://tx.io" }).length, 3 + 16 + 6);
});

test("simulate filters like the server and returns every recipient's outcome", () => {
  const body = JSON.stringify({ sms: { message: { text: "Hi", pushtype: "alert" }, recipients: { gsm: [
    { value: "33612345678" }, { value: "0612345678" }, { value: "33612345678" }, { value: "33611111111" },
  ] } } });
  const result = core.simulate(body, "json", { balance: 100, blacklist: ["33611111111"] }, NOW);
  assert.deepEqual(
    [result.total, result.sent, result.invalid, result.duplicated, result.blacklisted, result.cost, result.credits],
    [4, 1, 1, 1, 1, 1, 99],
  );
  assert.deepEqual([...result.outcomes].map((code) => result.outcomeNames[code]), ["sent", "invalid", "duplicated", "blacklisted"]);
  assert.deepEqual([...result.parts], [1, 0, 0, 0]);
  assert.equal(result.sendAt, "2026-11-21T10:00:00Z");
});

test("toGsm keeps a French text in the GSM alphabet, as the server does with encoding gsm", () => {
  const text = "Fête d\u2019été : –20 % sur les crêpes… Venez goûter nos nouveautés, cœur fondant, tôt ce week-end !";
  const gsm = core.toGsm(text);
  assert.ok(gsm.text.startsWith("Fete d'été : -20 % sur les crepes..."));
  assert.equal(gsm.replaced, 8);
  assert.deepEqual(gsm.twins.slice(0, 2), [{ from: "ê", to: "e" }, { from: "\u2019", to: "'" }]);
  assert.equal(core.segments(gsm.text).parts, 1);
  assert.equal(core.segments(text).parts, 2);
  const body = (encoding) => JSON.stringify({ sms: { message: { text, pushtype: "alert", encoding }, recipients: { gsm: [{ value: "33612345678" }] } } });
  const smart = core.simulate(body("gsm"), "json", { balance: 100 }, NOW);
  assert.deepEqual([smart.replaced, smart.parts_saved, [...smart.parts]], [8, 1, [1]]);
  const plain = core.simulate(body("auto"), "json", { balance: 100 }, NOW);
  assert.deepEqual([plain.replaced, [...plain.parts]], [undefined, [2]]);
});

test("blacklist and NPAI entries that are not valid mobile numbers match no one and are ignored", () => {
  const body = JSON.stringify({ sms: { message: { text: "Hi", pushtype: "alert" }, recipients: { gsm: [
    { value: "33612345678" }, { value: "33611111111" }, { value: "33622222222" },
  ] } } });
  const context = { balance: 10, blacklist: ["abc", "", "0612345678", "33123456789", "33611111111"], npai: ["336", "+33 6 22 22 22 22", "999612345678"] };
  const result = core.simulate(body, "json", context, NOW);
  assert.deepEqual([...result.outcomes].map((code) => result.outcomeNames[code]), ["sent", "blacklisted", "npai"]);
  assert.deepEqual([result.sent, result.blacklisted, result.npai, result.invalid], [1, 1, 1, 0]);
});

test("toGsmAll reads an item that is not a string as String(item), whichever way the texts cross", () => {
  for (const nul of ["", "\u0000"]) {
    const gsm = core.toGsmAll([42, `ô${nul}`, null, true]);
    assert.deepEqual(gsm.texts, ["42", core.toGsm(`ô${nul}`).text, "", "true"]);
    assert.deepEqual([...gsm.replaced], [0, 1, 0, 0]);
  }
});

test("toGsmAll converts many texts in one call, as toGsm does one", () => {
  const texts = ["L’été", "Déjà vu", "Cœur…"];
  const all = core.toGsmAll(texts);
  assert.deepEqual(all.texts, texts.map((t) => core.toGsm(t).text));
  assert.deepEqual([...all.replaced], texts.map((t) => core.toGsm(t).replaced));
  assert.ok(all.replaced instanceof Uint32Array);
  // Empty texts, none at all, and a text holding NUL keep their places.
  for (const some of [["", "Été", ""], [], ["a\u0000ô", "é"], ["😀 ô 𝄞", "Ÿ…", "\u00a0"], [""]]) {
    const gsm = core.toGsmAll(some);
    assert.deepEqual(gsm.texts, some.map((t) => core.toGsm(t).text), JSON.stringify(some));
    assert.deepEqual([...gsm.replaced], some.map((t) => core.toGsm(t).replaced));
  }
});

test("a marketing send skips the numbers the context says reached the frequency cap", () => {
  const body = (pushtype) => JSON.stringify({ sms: { message: { text: "Soldes", pushtype }, recipients: { gsm: [{ value: "33612345678" }, { value: "33611111111" }] } } });
  const context = { balance: 10, capped: ["33611111111"] };
  const marketing = core.simulate(body("marketing"), "json", context, NOW);
  assert.deepEqual([...marketing.outcomes].map((code) => marketing.outcomeNames[code]), ["sent", "capped"]);
  assert.deepEqual([marketing.sent, marketing.capped], [1, 1]);
  const alert = core.simulate(body("alert"), "json", context, NOW);
  assert.deepEqual([alert.sent, alert.capped], [2, 0], "alerts are never capped");
  assert.equal(core.simulate(body("marketing"), "json", { balance: 10 }, NOW).capped, undefined, "absent without a cap");
});

test("a context or options of the wrong shape throw an Error that names it", () => {
  const body = JSON.stringify({ sms: { message: { text: "Hi", pushtype: "alert" }, recipients: { gsm: [{ value: "33612345678" }] } } });
  assert.throws(() => core.simulate(body, "json", { balance: "lots" }, NOW), /^Error: context: invalid type: string "lots", expected f64$/);
  assert.throws(() => core.simulate(body, "json", { balance: 1, blacklist: "33611111111" }, NOW), /^Error: context: invalid type: string .*expected a sequence$/);
  assert.throws(() => core.simulate(body, "json", undefined, NOW), /^Error: context: expected a plain object/);
  assert.throws(() => core.segments("Hi", { unicode: "yes" }), /^Error: options: invalid type: string "yes", expected a boolean$/);
  // The result crosses back as plain data: counters are numbers, not strings or BigInts.
  assert.equal(typeof core.simulate(body, "json", { balance: 1 }, NOW).credits, "number");
});

test("normalizeNumber follows docs/interface.md §3.1", () => {
  assert.equal(core.normalizeNumber("+33 6 12 34 56 78"), "33612345678");
  assert.equal(core.normalizeNumber("06 12 34 56 78", "FR"), "33612345678");
  assert.equal(core.normalizeNumber("+33 (0)6.12.34.56.78", "FR"), "33612345678", "a bracketed trunk prefix is dropped");
  assert.equal(core.normalizeNumber("0044 (0)7400 123456"), "447400123456");
  assert.throws(() => core.normalizeNumber("(0)6 12 34 56 78"), Error);
  assert.throws(() => core.normalizeNumber("0612345678"), Error);
  assert.throws(() => core.normalizeNumber("33123456789"), Error);
});

test("nextAllowedSend moves marketing into the window", () => {
  const sundayNight = new Date("2026-11-22T21:00:00Z");
  assert.equal(core.nextAllowedSend("marketing", sundayNight).toISOString(), "2026-11-23T07:00:00.000Z");
  assert.equal(core.nextAllowedSend("alert", sundayNight).toISOString(), sundayNight.toISOString());
});

test("every instant also takes the delay format Y-m-d H:i:s, in Paris time", () => {
  // Sunday 22:00 in Paris (UTC+1 in November): marketing waits for Monday 08:00.
  assert.equal(core.nextAllowedSend("marketing", "2026-11-22 22:00:00").toISOString(), "2026-11-23T07:00:00.000Z");
  assert.equal(core.nextAllowedSend("alert", "2026-07-14 09:30:00").toISOString(), "2026-07-14T07:30:00.000Z", "UTC+2 in summer");
  const body = (delay) => JSON.stringify({ sms: { message: { text: "Hi", pushtype: "alert", delay }, recipients: { gsm: [{ value: "33612345678" }] } } });
  assert.equal(core.simulate(body(""), "json", { balance: 1 }, "2026-11-21 11:00:00").sendAt, NOW);
  assert.equal(core.validateSend(body("2026-11-21 11:30:00"), "json", { now: "2026-11-21 11:00:00" }).summary.delay, "2026-11-21T10:30:00Z");
  assert.equal(core.validateSend(body("2026-11-21 11:30:00"), "json", { now: "2026-11-21 11:30:00" }).summary.delay, null);
  assert.throws(() => core.nextAllowedSend("alert", "2026-03-29 02:30:00"), /does not exist in Paris time/);
  assert.throws(() => core.nextAllowedSend("alert", "2026-11-22 22:00"), /not an ISO-8601 or Y-m-d H:i:s date/);
});

test("signWebhook and verifyWebhook agree, and verify says why it refuses", () => {
  const body = '{"status":3}';
  const signature = core.signWebhook("s3cret", 1700000000, body);
  assert.match(signature, /^v1=[0-9a-f]{64}$/);
  assert.equal(core.verifyWebhook("s3cret", "1700000000", signature, body, 1700000000 * 1000), true);
  assert.throws(() => core.verifyWebhook("s3cret", "1700000000", signature, body + " ", 1700000000 * 1000), Error);
  assert.throws(() => core.verifyWebhook("s3cret", "1700000000", signature, body, (1700000000 + 3600) * 1000), Error);
});
