// Compose in Chromium: signing in, the live counter, look-alike replacement, links, the
// sending time, the in-page simulation against the server's, and a send that lands in history.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, signInWithToken, PHONE } from "./app.mjs";

const suite = serveForTests();

test("/ leads to sign-in; a wrong token is refused, the right one shows the credits", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/", token: null });
  assert.equal(new URL(page.url()).pathname, "/app/");
  await signInWithToken(page, "texto_wrong");
  await page.getByText("This token was refused").waitFor();
  assert.equal(await page.getByLabel("API token").getAttribute("aria-invalid"), "true");
  await assertAccessible(page, "sign-in with an error");
  await screenshots(page, "sign-in");

  await page.getByLabel("API token").fill(suite.texto.token);
  await page.getByRole("button", { name: "Sign in with the token" }).click();
  await eventually(() => page.getByTestId("credits").textContent(), (t) => t.includes("1,000"), "credits in the header");
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((k) => k !== "texto.lang")), [], "no secret in localStorage");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("Password", { exact: true }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the app's code travels gzipped", async () => {
  const { browser, texto } = suite;
  const context = await browser.newContext();
  const page = await context.newPage();
  const wasm = new Promise((resolve) => page.on("response", (r) => r.url().endsWith(".wasm") && resolve(r)));
  await page.goto(`${texto.url}/app/`);
  const response = await wasm;
  assert.equal((await response.allHeaders())["content-encoding"], "gzip");
  await context.close();
});

test("a token the server stops accepting sends the user back to sign-in with a message", async () => {
  const made = await api(suite.texto, "POST", "/token", { token: { name: "Short-lived" } });
  const page = await openApp(suite.browser, suite.texto, { token: made.body.token });
  const campaigns = page.getByRole("link", { name: "Campaigns" });
  await campaigns.waitFor(); // the app is up, whatever else the machine is doing
  assert.equal((await api(suite.texto, "DELETE", `/token/${made.body.token_id}`)).status, 200);
  // The next call the app makes is refused (the header's balance may already have been, and
  // the app already gone back to sign-in). One click once waited out the whole wait in CI
  // (2026-11-29; Campaigns' page loads a bundle of its own first): each page is opened in turn
  // until a call is refused.
  const ended = page.getByText("Your session ended");
  for (let turn = 0; turn < 6 && !(await ended.isVisible()); turn++) {
    const name = turn % 2 === 0 ? "Compose" : "Campaigns";
    await page.getByRole("link", { name, exact: true }).click({ timeout: 5000 }).catch(() => {});
    await ended.waitFor({ timeout: 10_000 }).catch(() => {});
  }
  await ended.waitFor();
  await page.getByLabel("Password", { exact: true }).waitFor();
  await page.context().close();
});

test("a person invited by link signs in with email and password and sees the team", async () => {
  const invited = await api(suite.texto, "POST", "/users", { user: { email: "camille@example.com", role: "author" } });
  assert.equal(invited.status, 200);
  const secret = invited.body.invitation_url.split("/").pop();
  const joined = await api(suite.texto, "POST", `/invitation/${secret}`, { invitation: { name: "Camille", password: "a long passphrase" } });
  assert.equal(joined.status, 200);
  const page = await openApp(suite.browser, suite.texto, { token: null });
  await page.getByLabel("Email", { exact: true }).fill("camille@example.com");
  await page.getByLabel("Password", { exact: true }).fill("a long passphrase");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("link", { name: "Team" }).click();
  await page.getByRole("cell", { name: "camille@example.com" }).waitFor();
  assert.equal(await page.getByRole("link", { name: "Tokens" }).count(), 0, "an author does not manage tokens");
  assert.equal(await page.getByRole("button", { name: "Invite" }).count(), 0, "nor the team");
  await assertAccessible(page, "team as an author");
  await screenshots(page, "team");
  await page.context().close();
});

test("the counter counts as the carrier will, and smart encoding keeps a text to the GSM alphabet", async () => {
  const page = await openApp(suite.browser, suite.texto);
  const message = page.getByLabel("Message", { exact: true });
  const counter = page.getByTestId("counter");
  const smart = page.getByTestId("smart-encoding");
  const keepToGsm = page.getByLabel(/^Keep to the GSM alphabet/);
  const counted = (expected) => eventually(() => counter.textContent(), (t) => t === expected, `counter ${expected}`);

  await message.fill("Soldes -20€");
  await counted("12 characters · 1 SMS · GSM-7 · 148 left");
  assert.equal(await page.getByTestId("unicode-warning").count(), 0);
  assert.equal(await smart.count(), 0, "nothing to replace: no box");

  await message.fill("Soldes -20€ chez François");
  await counted("25 characters · 1 SMS · Unicode (UCS-2) · 45 left");
  assert.match(await page.getByTestId("unicode-warning").textContent(), /ç\s*U\+00E7 → c/);
  await keepToGsm.check();
  await counted("26 characters · 1 SMS · GSM-7 · 134 left");
  assert.equal(await message.inputValue(), "Soldes -20€ chez François", "the text stays as typed");
  assert.match(await smart.textContent(), /1 character replaced: 1 SMS per recipient/);
  assert.equal(await page.getByTestId("unicode-warning").count(), 0);

  await message.fill("Fête d’été : –20 % sur les crêpes… Venez goûter nos nouveautés, cœur fondant, tôt ce week-end !");
  await eventually(() => smart.textContent(), (t) => /8 characters replaced: 1 SMS instead of 2 per recipient/.test(t), "the parts saved");
  assert.match(await smart.textContent(), /ê → e · ’ → '/);
  assert.match(await page.getByTestId("preview-text").textContent(), /^Fete d'été : -20 % sur les crepes\.\.\./);
  await assertAccessible(page, "compose with smart encoding");
  await screenshots(page, "compose-smart-encoding");
  await keepToGsm.uncheck();
  await eventually(() => counter.textContent(), (t) => t.includes("2 SMS · Unicode (UCS-2)"), "two UCS-2 parts again");
  await page.context().close();
});

test("marketing adds the STOP text, links count at their short length, and the time is explained", async () => {
  const page = await openApp(suite.browser, suite.texto);
  const message = page.getByLabel("Message", { exact: true });
  await message.fill("Bonjour");
  await page.getByLabel(/^Marketing/).check();
  await eventually(() => page.getByTestId("counter").textContent(), (t) => t.startsWith("21 characters"), "STOP text counted");
  assert.match(await page.getByTestId("preview-text").textContent(), /Bonjour\nSTOP au 36180/);

  await message.press("End");
  await page.getByRole("button", { name: "Insert link" }).click();
  assert.equal(await message.inputValue(), "Bonjour<-short->");
  // The new link field is not an error before it is typed in; a wrong address is, once typed.
  await page.getByLabel("Recipients", { exact: true }).fill("0612345678");
  const simulation = page.getByTestId("simulation");
  await eventually(() => simulation.textContent(), (t) => t.includes("Type the link’s address to see the cost."), "no error before typing");
  assert.doesNotMatch(await simulation.textContent(), /absolute/);
  await page.getByLabel("Link URL 1").fill("ftp://x");
  await eventually(() => simulation.textContent(), (t) => /absolute http\(s\) URL/.test(t), "a wrong link once typed");
  await page.getByLabel("Link URL 1").fill("https://example.com/soldes");
  const shortLength = `${suite.texto.url}/s/XXXXXX`.length;
  await eventually(() => page.getByTestId("counter").textContent(), (t) => t.startsWith(`${21 + shortLength} characters`), "short link counted");

  // Two days ahead at 22:00: marketing may not go then, so the page says when it will.
  const at = new Date(Date.now() + 2 * 86_400_000);
  const day = at.toISOString().slice(0, 10);
  await page.getByLabel("Send at").fill(`${day}T22:00`);
  const when = await eventually(() => page.getByTestId("send-at-when").textContent(), (t) => t.startsWith("in "), "send-at explained");
  assert.match(when, /\(Paris, .*22:00\)/);
  assert.match(when, /Marketing cannot go out then .* it will go on .* 08:00 \(Paris\)/);
  await assertAccessible(page, "compose with marketing and a link");
  await screenshots(page, "compose-marketing");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("marketing to overseas numbers says when each territory gets it, in its own time and in Paris's", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Soldes d’hiver");
  await page.getByLabel(/^Marketing/).check();
  await page.getByLabel("Recipients", { exact: true }).fill("0612345678\n+262 692 12 34 56\n+262 692 12 34 57\n+687 75 12 34");
  const overseas = page.getByRole("region", { name: "Overseas, in their own time" });
  const lines = await eventually(() => overseas.getByRole("listitem").allTextContents(), (l) => l.length === 2, "two territories");
  assert.match(lines[0], /^La Réunion, 2 recipients: .* their time \(.* in Paris\)$/);
  assert.match(lines[1], /^New Caledonia, 1 recipient: /);
  // La Réunion is three hours ahead of Paris in winter, two in summer.
  const [, local, paris] = lines[0].match(/(\d\d):\d\d their time \(.*(\d\d):\d\d in Paris\)/);
  assert.ok([2, 3].includes((Number(local) - Number(paris) + 24) % 24), lines[0]);
  // On a Sunday evening, Paris's numbers wait for Monday and the overseas ones keep their own hours.
  const sunday = new Date(Date.now() + ((7 - new Date().getUTCDay()) % 7 || 7) * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Send at").fill(`${sunday}T21:00`);
  const when = await eventually(() => page.getByTestId("send-at-when").textContent(), (t) => t.includes("their own hours"), "overseas explained");
  assert.match(when, /Marketing cannot go out then .* it will go on .* 08:00 \(Paris\)\. Overseas numbers get it in their own hours/);
  await assertAccessible(page, "compose with overseas recipients");
  await screenshots(page, "compose-overseas");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const fr = await openApp(suite.browser, suite.texto, { locale: "fr-FR", viewport: PHONE });
  await fr.getByLabel("Message", { exact: true }).fill("Soldes d’hiver");
  await fr.getByLabel(/^Marketing/).check();
  await fr.getByLabel("Destinataires", { exact: true }).fill("+596 696 12 34 56");
  const outreMer = fr.getByRole("region", { name: "Outre-mer, à leur heure" });
  await eventually(() => outreMer.textContent(), (t) => /Martinique, 1 destinataire : .*, heure locale \(.* à Paris\)/.test(t), "la Martinique");
  await fr.getByLabel("Envoyer le", { exact: true }).fill(`${sunday}T21:00`);
  const quand = await eventually(() => fr.getByTestId("send-at-when").textContent(), (t) => t.includes("à leur heure"), "l’outre-mer expliqué");
  assert.doesNotMatch(quand, /Le marketing ne part pas/, "only a Martinique number: Paris’s hours do not apply");
  await assertAccessible(fr, "Composer pour l’outre-mer");
  await screenshots(fr, "compose-overseas-fr");
  assert.deepEqual(fr.errors, []);
  await fr.context().close();
});

test("sign in → compose → simulate → check with server → send → see it in history", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Rendez-vous demain à 10h");
  await page.getByLabel("Recipients", { exact: true }).fill("0612345678\n+33 6 12 34 56 79\n33612345678\n12345");
  const figures = page.getByTestId("simulation");
  await eventually(() => figures.textContent(), (t) => /Total4Sent2/.test(t), "in-page simulation");
  const text = await figures.textContent();
  assert.match(text, /Invalid1Duplicates1/);
  assert.match(text, /Cost2Credits after998/);

  await page.getByRole("button", { name: "Check with server" }).click();
  await page.getByText("The server's simulation gives the same figures.").waitFor();

  // Kept on the server: the address names the draft, so a reload opens it again.
  await page.getByRole("button", { name: "Save the draft", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Draft saved for the team" }).waitFor();
  await eventually(() => page.url(), (u) => /\/app\/compose\?draft=\d+$/.test(u), "the draft in the address");
  await page.reload();
  await eventually(() => page.getByLabel("Message", { exact: true }).inputValue(), (v) => v === "Rendez-vous demain à 10h", "the draft survives a reload");
  await eventually(() => figures.textContent(), (t) => /Total4Sent2/.test(t), "its recipients too");

  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send this campaign?" });
  await dialog.waitFor();
  await eventually(() => page.evaluate(() => document.activeElement?.textContent), (t) => t === "Confirm", "focus on Confirm");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Recipients2.*Cost2Credits after998.*Goes now/);
  await assertAccessible(page, "the send confirmation");
  await screenshots(page, "compose-confirm");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  const accepted = page.getByTestId("accepted");
  await accepted.waitFor();
  const ticket = (await accepted.textContent()).match(/Ticket (\d+)/)[1];
  await eventually(() => page.getByTestId("credits").textContent(), (t) => t.includes("998"), "credits after the send");
  assert.equal(await page.getByLabel("Message", { exact: true }).inputValue(), "", "the draft is cleared once sent");
  assert.deepEqual((await api(suite.texto, "GET", "/drafts")).body.drafts, [], "and is no longer a draft");

  await page.getByRole("link", { name: "See the campaign" }).click();
  await page.getByRole("heading", { name: `Campaign ${ticket}` }).waitFor();
  await eventually(() => page.getByTestId("campaign-figures").textContent(), (t) => /Total4.*Sent2/.test(t), "campaign figures");
  await assertAccessible(page, "campaign detail");
  await screenshots(page, "campaign-detail");

  await page.getByRole("link", { name: "Campaigns" }).click();
  const row = page.getByRole("row").filter({ hasText: "Rendez-vous demain" });
  await row.waitFor();
  const cells = await row.getByRole("cell").allTextContents();
  assert.deepEqual(cells.slice(2, 5), ["4", "2", "2"], "total, sent and cost in the history");
  await assertAccessible(page, "campaign history");
  await screenshots(page, "campaigns");
  await page.waitForTimeout(2_500); // the detail page's refresh loop must end quietly once it is left
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a scheduled campaign can be cancelled (credits back) and cloned into Compose", async () => {
  const page = await openApp(suite.browser, suite.texto);
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Message", { exact: true }).fill("Offre de la semaine");
  await page.getByLabel("Recipients", { exact: true }).fill("33611111111");
  await page.getByLabel("Send at").fill(`${day}T11:00`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("link", { name: "See the campaign" }).click();
  await eventually(() => page.getByTestId("campaign-figures").textContent(), (t) => t.includes("Scheduled"), "scheduled");
  const before = await page.getByTestId("credits").textContent();
  await page.getByRole("button", { name: "Cancel the campaign" }).click();
  await page.getByText("The campaign is cancelled").waitFor();
  await eventually(() => page.getByTestId("credits").textContent(), (t) => t !== before, "credits refunded");
  await page.getByRole("button", { name: "Clone" }).click();
  await page.getByRole("heading", { name: "Compose a campaign" }).waitFor();
  // The clone is a draft on the server, which Compose opens.
  await eventually(() => page.getByLabel("Message", { exact: true }).inputValue(), (v) => v === "Offre de la semaine", "the clone opened");
  assert.match(page.url(), /\/app\/compose\?draft=\d+$/);

  // The history narrows by text, by number and by date (the offer goes out in three days).
  await page.getByRole("link", { name: "Campaigns" }).click();
  const texts = () => page.locator("table.campaigns tbody td.text").allTextContents();
  await eventually(texts, (t) => t.includes("Offre de la semaine") && t.includes("Rendez-vous demain à 10h"), "both campaigns");
  await page.getByLabel("Text contains").fill("SEMAINE");
  await eventually(texts, (t) => t.length === 1 && t[0] === "Offre de la semaine", "text search");
  await page.getByLabel("Text contains").fill("");
  await page.getByLabel("Search a number").fill("+33 6 12 34 56 79");
  await eventually(texts, (t) => t.length === 1 && t[0] === "Rendez-vous demain à 10h", "number search");
  await page.getByLabel("Search a number").fill("");
  await page.getByLabel("From").fill(day);
  await eventually(texts, (t) => t.length === 1 && t[0] === "Offre de la semaine", "date range");
  await assertAccessible(page, "campaign history filtered");
  await page.context().close();
});
