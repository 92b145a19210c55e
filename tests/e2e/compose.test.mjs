import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTexto } from "./server.mjs";
import { launchBrowser } from "./browser.mjs";

let texto;
let browser;

before(async () => {
  texto = await startTexto();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await texto?.stop();
});

test("/ leads to the Compose page", async () => {
  const page = await browser.newPage();
  await page.goto(`${texto.url}/`);
  assert.equal(new URL(page.url()).pathname, "/app/");
  await page.getByLabel("Message").waitFor();
  await page.close();
});

test("typing shows the live count and names the characters that force Unicode", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(`${texto.url}/app/`);
  const message = page.getByLabel("Message");
  const counter = page.getByTestId("counter");
  const warning = page.getByTestId("unicode-warning");

  await message.pressSequentially("Soldes -20€");
  await assertText(counter, "12 characters · 1 SMS · GSM-7 · 148 left");
  assert.equal(await warning.count(), 0, "no warning while the text is GSM-7");

  await message.pressSequentially(" chez François");
  await assertText(counter, "25 characters · 1 SMS · Unicode (UCS-2) · 45 left");
  assert.match(await warning.textContent(), /“ç”/);
  await page.screenshot({ path: join(process.env.TEXTO_SCREENSHOTS ?? ".", "compose.png"), fullPage: true });

  await message.fill("a".repeat(150) + "€€€€€€");
  await assertText(counter, "162 characters · 2 SMS · GSM-7 · 143 left");
  assert.equal(await warning.count(), 0, "the warning goes once the Unicode characters are gone");
  assert.deepEqual(errors, []);
  await page.close();
});

/** Waits (up to 5 s) until the locator shows exactly `expected`. */
async function assertText(locator, expected) {
  const deadline = Date.now() + 5_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await locator.textContent();
    if (seen === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(seen, expected);
}
