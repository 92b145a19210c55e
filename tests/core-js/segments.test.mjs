import { test } from "node:test";
import assert from "node:assert/strict";
import { core } from "./package.mjs";

test("a plain GSM text is one SMS of 160", () => {
  assert.deepEqual(core.segments("Hello", false), {
    encoding: "gsm7",
    length: 5,
    parts: 1,
    perPart: 160,
    remaining: 155,
    unicodeChars: [],
  });
});

test("the second argument is a unicode flag or an options object", () => {
  assert.equal(core.segments("Hello").encoding, "gsm7");
  assert.equal(core.segments("Hello", true).encoding, "ucs2");
  assert.equal(core.segments("Hello", { unicode: true }).encoding, "ucs2");
});

test("161 GSM characters split into two parts of 153", () => {
  const split = core.segments("a".repeat(161), false);
  assert.equal(split.parts, 2);
  assert.equal(split.perPart, 153);
  assert.equal(split.remaining, 145);
});

test("a euro sign takes two septets and is never split", () => {
  const split = core.segments("a".repeat(152) + "€" + "a".repeat(8), false);
  assert.equal(split.length, 162);
  assert.equal(split.parts, 2);
  assert.equal(split.remaining, 143);
});

test("ç switches to UCS-2 and is reported, Ç does not", () => {
  const lower = core.segments("Soldes d'été : -20€ chez François !", false);
  assert.equal(lower.encoding, "ucs2");
  assert.equal(lower.length, 35);
  assert.deepEqual(lower.unicodeChars, ["ç"]);
  assert.equal(core.segments("FRANÇOIS", false).encoding, "gsm7");
});

test("an emoji counts two UTF-16 units", () => {
  const split = core.segments("😀", false);
  assert.equal(split.length, 2);
  assert.deepEqual(split.unicodeChars, ["😀"]);
});

test("the result is a plain object that survives JSON", () => {
  const split = core.segments("abc", false);
  assert.equal(Object.getPrototypeOf(split), Object.prototype);
  assert.deepEqual(JSON.parse(JSON.stringify(split)), split);
});
