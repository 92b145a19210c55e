// What every web app test does: open a signed-in page, watch the console, check accessibility
// with axe-core, and save screenshots at laptop and phone width.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTexto } from "./server.mjs";
import { launchBrowser } from "./browser.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * Starts texto and Chromium before the file's tests and stops them after: `suite.texto` and
 * `suite.browser` are there once the tests run.
 */
export function serveForTests(extra = []) {
  const suite = {};
  before(async () => {
    suite.texto = await startTexto(extra);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.texto?.stop();
  });
  return suite;
}

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * A new page on `texto` that records console errors and page errors; signed in when `token`
 * is given (through the sign-in form, as a person would).
 */
export async function openApp(browser, texto, { path = "/app/compose", token = texto.token, locale = "en-GB", viewport = LAPTOP } = {}) {
  const context = await browser.newContext({ viewport, locale });
  // Anything the Content-Security-Policy blocks becomes a console error, which fails the test.
  await context.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`),
    ),
  );
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    // Chromium logs every 401 and 422 answer; the tests that provoke them check the message shown.
    if (message.type() === "error" && !/status of (401|422) /.test(message.text())) page.errors.push(message.text());
  });
  await page.goto(`${texto.url}${path}`);
  if (token) {
    await signInWithToken(page, token);
    // Signed in: the side navigation shows, or on a phone its menu button.
    await page.locator("#side-nav:visible, .menu-button:visible").first().waitFor();
  }
  return page;
}

/** Signs in through "Sign in with an API token", in either language. */
export async function signInWithToken(page, token) {
  await page.getByText(/^(Sign in with an API token|Se connecter avec un jeton d’API)$/).click();
  await page.getByLabel(/^(API token|Jeton d’API)$/).fill(token);
  await page.getByRole("button", { name: /^(Sign in with the token|Se connecter avec le jeton)$/ }).click();
}

/** Fails on any WCAG 2.1 A or AA violation axe-core finds in the page as it is now. */
export async function assertAccessible(page, what) {
  // Evaluated through the DevTools protocol: the app's policy allows no inline script, rightly.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () =>
    window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }),
  );
  const violations = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  assert.deepEqual(violations, [], `accessibility violations on ${what}`);
}

/** Saves the page at laptop and phone width as NAME-laptop.png and NAME-phone.png, and checks
 * that neither width scrolls sideways. */
export async function screenshots(page, name) {
  const dir = process.env.TEXTO_SCREENSHOTS ?? ".";
  for (const [label, size] of [["laptop", LAPTOP], ["phone", PHONE]]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px at ${label} width`);
    await page.screenshot({ path: join(dir, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
}

/** Waits (up to 10 s) until `read()` gives a value `check` accepts; fails with the last one. */
export async function eventually(read, check, what) {
  const deadline = Date.now() + 10_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await read();
    if (check(seen)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${what}: last seen ${JSON.stringify(seen)}`);
}

/** Calls the interface directly (for setting up data a test starts from). */
export async function api(texto, method, path, body) {
  const response = await fetch(`${texto.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${texto.token}`, Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
