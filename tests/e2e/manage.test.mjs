// The management screens in Chromium: CSV import with bad rows, lists, webhooks, the
// blacklist and NPAI, the balance alert, and French.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, signInWithToken } from "./app.mjs";

const suite = serveForTests();

/** A French Excel export: `;`-separated, Windows-1252 (ü is 0xFC), national numbers, bad rows. */
function frenchExcelCsv() {
  const rows = ["Nom;Mobile;Ville", "Dupont;06 12 34 56 78;Paris", "M\u00fcller;+33 (0)6.12.34.56.79;Lyon", "Faux;12;Nantes", "Vide;;Lille", "Belge;0470 12 34 56;Bruxelles"];
  return Buffer.from(rows.join("\r\n") + "\r\n", "latin1");
}

test("a French Excel CSV imports into Compose; bad rows are reported and downloadable", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Nos soldes commencent demain");
  await page.getByText("Import a CSV file").click();
  await page.getByLabel("CSV file").setInputFiles({ name: "clients.csv", mimeType: "text/csv", buffer: frenchExcelCsv() });
  const column = page.getByLabel("Phone number column");
  await eventually(() => column.inputValue(), (v) => v === "1", "the Mobile column is guessed");
  assert.equal(await page.getByLabel("The first row holds column names").isChecked(), true);
  assert.match(await page.getByRole("table", { name: "First rows of the file" }).textContent(), /Müller/);
  await assertAccessible(page, "the CSV column picker");
  await screenshots(page, "import-picker");

  await page.getByRole("button", { name: "Import", exact: true }).click();
  const report = page.getByTestId("import-report");
  await report.waitFor();
  assert.match(await report.textContent(), /2 rows imported, 3 rejected/);
  const rejected = await page.getByRole("table", { name: "Rejected rows" }).getByRole("row").allTextContents();
  assert.equal(rejected.length, 4, "a header and three rejected rows");
  assert.match(rejected[1], /^412/);
  assert.match(rejected[2], /^5no number/);
  assert.match(rejected[3], /^60470 12 34 56/, "a Belgian number is not French");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: /Download the rejected rows/ }).click()]);
  const csv = readFileSync(await download.path(), "utf8");
  // UTF-8 with a byte order mark, so that French Excel reads accents.
  assert.match(csv, /^\uFEFFrow;value;reason\r?\n4;12;/);
  await eventually(() => page.getByTestId("imported-count").textContent(), (t) => /Imported numbers: 2/.test(t), "imported count");
  await eventually(() => page.getByTestId("simulation").textContent(), (t) => /Total2Sent2/.test(t), "the simulation counts the import");
  await screenshots(page, "import-report");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a list is created by pasting, searched, trimmed, and sent to from Compose", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/lists" });
  await page.getByLabel("List name").fill("VIP Paris");
  await page.getByLabel("Numbers to add").fill("33612345601\n33612345602\n33612345603");
  await page.getByRole("button", { name: "Create the list" }).click();
  await page.getByRole("heading", { name: "VIP Paris" }).waitFor();
  await eventually(() => page.getByRole("row").count(), (n) => n === 4, "three contacts listed");
  await page.getByLabel("Search contacts").fill("602");
  await eventually(() => page.getByRole("row").count(), (n) => n === 2, "search narrows to one");
  await page.getByRole("button", { name: "Delete 33612345602" }).click();
  await page.getByLabel("Search contacts").fill("");
  await eventually(() => page.getByRole("row").count(), (n) => n === 3, "two contacts left");
  await page.getByLabel("Number", { exact: true }).fill("33612345604");
  await page.getByLabel("Info 1", { exact: true }).fill("M".repeat(160));
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByText("1 added, 0 invalid, 0 already there.").waitFor();
  await eventually(() => page.getByRole("row").count(), (n) => n === 4, "three contacts again");
  await assertAccessible(page, "list detail");
  await screenshots(page, "list-detail");

  // Edit a contact in place; take out its NPAI numbers; duplicates there are none.
  await page.getByRole("button", { name: "Edit 33612345601" }).click();
  const editor = page.getByRole("region", { name: "Edit the contact" });
  await editor.getByLabel("Info 2").fill("Client fidèle");
  await assertAccessible(page, "the contact editor");
  await editor.getByRole("button", { name: "Save" }).click();
  await editor.waitFor({ state: "detached" });
  await eventually(() => page.getByRole("row").filter({ hasText: "33612345601" }).textContent(), (t) => t.includes("Client fidèle"), "the edited field");
  assert.equal((await api(suite.texto, "POST", "/npai", { npai: { contacts: { gsm: [{ value: "33612345603" }] } } })).status, 200);
  await page.getByRole("button", { name: "Remove NPAI numbers" }).click();
  await page.getByText("1 contact removed.").waitFor();
  await eventually(() => page.getByRole("row").count(), (n) => n === 3, "the NPAI number is gone");
  await page.getByRole("button", { name: "Remove duplicates" }).click();
  await page.getByText("0 contacts removed.").waitFor();
  await page.getByLabel("Number", { exact: true }).fill("33612345605");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await eventually(() => page.getByRole("row").count(), (n) => n === 4, "three contacts once more");

  await page.getByRole("button", { name: "Send to this list" }).click();
  await page.getByRole("heading", { name: "Compose a campaign" }).waitFor();
  // A new draft on the server, which Compose opens.
  await eventually(() => page.getByLabel(/VIP Paris/).isChecked(), (checked) => checked, "the list chosen");
  await page.getByLabel("Message", { exact: true }).fill("Bonjour [info1]");
  await eventually(() => page.getByTestId("simulation").textContent(), (t) => /Total3Sent3SMS per message1–2/.test(t), "list simulation");
  await eventually(() => page.getByTestId("counter").textContent(), (t) => t.includes("· 1–2 SMS ·"), "parts over the list's contacts");
  await page.getByRole("link", { name: "Lists" }).click();
  assert.match(await page.getByRole("row").filter({ hasText: "VIP Paris" }).textContent(), /VIP Paris3/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a webhook is created, refused when its URL is bad, paused, and shows its log", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/webhooks" });
  await page.getByLabel("URL").fill("ftp://example.com/hook");
  await page.getByRole("button", { name: "Create the webhook" }).click();
  const problem = page.locator("#webhook-url-problem");
  await problem.waitFor();
  assert.equal(await page.getByLabel("URL").getAttribute("aria-describedby"), "webhook-url-problem");

  await page.getByLabel("Event type").selectOption("DLR");
  await page.getByLabel("URL").fill("http://127.0.0.1:9/texto-dlr");
  await page.getByLabel("Signing secret").fill("s3cret");
  await page.getByRole("button", { name: "Create the webhook" }).click();
  const hook = page.getByTestId("webhook").filter({ hasText: "texto-dlr" });
  await hook.getByText("Live").waitFor();
  await hook.getByRole("button", { name: "Pause DLR" }).click();
  await page.getByTestId("webhook").filter({ hasText: "texto-dlr" }).getByText("Paused").waitFor();
  const stored = await api(suite.texto, "GET", "/webhook");
  assert.equal(stored.body.webhook[0].status, "paused");
  await page.getByRole("button", { name: "Request log" }).click();
  await page.getByText("No request sent yet.").waitFor();
  await assertAccessible(page, "webhooks");
  await screenshots(page, "webhooks");
  await page.context().close();
});

test("numbers are added to and removed from the blacklist and NPAI, and searched", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/blacklist" });
  for (const number of ["33699887766", "33699887755"]) {
    await page.getByLabel("Number to add").fill(number);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("cell", { name: number, exact: true }).waitFor();
  }
  await page.getByLabel("Search a number").fill("7755");
  await eventually(() => page.getByRole("row").count(), (n) => n === 2, "one match and the header");
  await page.getByRole("button", { name: "Remove 33699887755" }).click();
  await page.getByText("Nothing here yet.").waitFor();
  await page.getByLabel("Search a number").fill("");
  await page.getByRole("cell", { name: "33699887766", exact: true }).waitFor();
  await page.getByLabel("Number to add").fill("123");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.locator("#add-number-problem").waitFor();
  await assertAccessible(page, "blacklist");
  await screenshots(page, "blacklist");

  await page.getByRole("link", { name: "NPAI" }).click();
  await page.getByRole("heading", { name: "NPAI" }).waitFor();
  await page.getByLabel("Number to add").fill("33611223344");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByRole("cell", { name: "33611223344", exact: true }).waitFor();
  await screenshots(page, "npai");

  await page.getByRole("link", { name: "Compose" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Bonjour");
  await page.getByLabel("Recipients", { exact: true }).fill("33699887766\n33611223344\n33611223355");
  await eventually(() => page.getByTestId("simulation").textContent(), (t) => /Blacklisted1NPAI1/.test(t), "the page filters them too");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the balance alert is edited and kept; French is chosen, remembered and formats numbers", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  await page.getByLabel("Trigger (credits)").fill("100");
  await page.getByLabel("Alert by email").check();
  await page.getByLabel("Email address").fill("ops@example.com");
  await page.getByLabel("Alert by SMS").check();
  await page.getByLabel("Phone number").fill("33612345678");
  await page.getByRole("button", { name: "Save", exact: true }).first().click();
  await page.getByText("Saved.").waitFor();
  await page.reload();
  await eventually(() => page.getByLabel("Trigger (credits)").inputValue(), (v) => v === "100", "trigger kept");
  assert.equal(await page.getByLabel("Email address").inputValue(), "ops@example.com");
  assert.equal(await page.getByLabel("Alert by SMS").isChecked(), true);

  await page.getByLabel("Trigger (credits)").fill("-5");
  await page.getByRole("button", { name: "Save", exact: true }).first().click();
  await page.locator("#alert-trigger-problem").waitFor();
  await assertAccessible(page, "settings with an error");

  await page.getByLabel("Language", { exact: true }).selectOption("fr");
  await page.getByRole("heading", { name: "Paramètres" }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr");
  await eventually(() => page.getByTestId("credits").textContent(), (t) => /Crédits\s*:\s*1\s000/.test(t), "French number format");
  await page.reload();
  await page.getByRole("heading", { name: "Paramètres" }).waitFor();
  await assertAccessible(page, "settings in French");
  await screenshots(page, "settings-fr");
  await page.getByRole("link", { name: "Composer" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Bonjour");
  await eventually(() => page.getByTestId("counter").textContent(), (t) => t === "7 caractères · 1 SMS · GSM-7 · 153 restants", "French counter");
  await screenshots(page, "compose-fr");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a token is created with a name, a lifetime and addresses, copied once, used, and revoked", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/tokens" });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("heading", { name: "API tokens" }).waitFor();
  await page.getByLabel("Name", { exact: true }).fill("Caisse magasin");
  await page.getByLabel("Expires after").selectOption({ label: "30 days" });
  await page.getByLabel("Allowed addresses").fill("127.0.0.1, 2001:db8::/32");
  assert.equal(await page.getByLabel("Role", { exact: true }).inputValue(), "owner", "the creator's role by default");
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Sender" });
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await shown.waitFor();
  const token = (await shown.locator("code").textContent()).trim();
  assert.match(token, /^texto_[0-9a-f]{48}$/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await shown.getByRole("button", { name: "Copied" }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token, "the Copy button copies the token");
  const row = page.getByRole("row").filter({ hasText: "Caisse magasin" });
  await row.waitFor();
  assert.match(await row.textContent(), /127\.0\.0\.1, 2001:db8::\/32/);
  assert.match(await row.textContent(), /Sender/, "the token's role");
  assert.ok(!(await row.textContent()).includes(token), "the list never shows the token itself");
  await assertAccessible(page, "tokens");
  await screenshots(page, "tokens");
  const usedBy = async (t) => (await fetch(`${suite.texto.url}/credits`, { headers: { Authorization: `Bearer ${t}`, Accept: "application/json" } })).status;
  assert.equal(await usedBy(token), 200, "the new token works from 127.0.0.1");
  await shown.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Revoke Caisse magasin" }).click();
  await row.waitFor({ state: "detached" });
  assert.equal(await usedBy(token), 401, "a revoked token is refused at once");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("retention periods are chosen in Settings and kept", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  await page.getByRole("heading", { name: "Retention" }).waitFor();
  const messages = page.getByLabel("Sent messages");
  await eventually(() => messages.isEnabled(), (on) => on, "the current periods are in");
  await messages.selectOption({ label: "90 days" });
  await page.getByLabel("Replies", { exact: true }).selectOption({ label: "30 days" });
  await page.getByRole("button", { name: "Save the retention periods" }).click();
  await page.getByRole("status").filter({ hasText: "Saved." }).last().waitFor();
  const stored = await api(suite.texto, "GET", "/retention");
  assert.equal(stored.body.retention.message, "90d");
  assert.equal(stored.body.retention.mo, "30d");
  assert.equal(stored.body.retention.list, "", "left as it was: everything kept");
  await page.reload();
  await eventually(() => page.getByLabel("Sent messages").inputValue(), (v) => v === "90d", "kept after a reload");
  await assertAccessible(page, "settings with retention");
  await screenshots(page, "settings");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a French browser gets the app in French; other screens pass axe", async () => {
  const page = await openApp(suite.browser, suite.texto, { token: null, locale: "fr-FR" });
  await page.getByRole("heading", { name: "Connexion à texto" }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr");
  await signInWithToken(page, suite.texto.token);
  for (const [link, heading] of [["Campagnes", "Campagnes"], ["Listes", "Listes"], ["NPAI", "NPAI"], ["Jetons", "Jetons d’API"], ["Composer", "Composer une campagne"]]) {
    await page.getByRole("link", { name: link, exact: true }).click();
    await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    await eventually(() => page.evaluate(() => document.activeElement?.tagName), (t) => t === "H1", `focus on the ${heading} heading`);
    await assertAccessible(page, `${heading} (fr)`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a list import maps columns to the contacts' names, tags, custom fields and consent", async () => {
  const rows = ["Mobile;Prénom;Ville;Étiquettes;Inscrit le", "0612340001;Léa;Lyon;vip|salon;2026-09-14", "0612340002;Hugo;Paris;salon;2026-10-01"];
  const page = await openApp(suite.browser, suite.texto, { path: "/app/lists" });
  await page.getByLabel("List name").fill("Salon 2026");
  await page.getByText("Import a CSV file").click();
  await page.getByLabel("CSV file").setInputFiles({ name: "salon.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n") + "\n", "utf8") });
  await eventually(() => page.getByLabel("Phone number column").inputValue(), (v) => v === "0", "the Mobile column is guessed");
  await page.getByLabel("First name").selectOption({ label: "Column 2 (Prénom)" });
  await page.getByLabel("Tags").selectOption({ label: "Column 4 (Étiquettes)" });
  await page.getByLabel(/Keep the other columns as custom fields/).check();
  await page.getByLabel("These people agreed to receive texts").check();
  await page.getByLabel("How they agreed").selectOption({ label: "A web form" });
  await page.getByLabel(/Date they agreed/).selectOption({ label: "Column 5 (Inscrit le)" });
  await page.getByLabel(/Proof of consent/).fill("Formulaire d'inscription du salon");
  await assertAccessible(page, "the contact columns of the importer");
  await screenshots(page, "import-contact-columns");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await page.getByTestId("import-report").waitFor();
  await page.getByRole("button", { name: "Create the list" }).click();
  await page.getByRole("heading", { name: "Salon 2026" }).waitFor();
  const lea = (await api(suite.texto, "GET", "/contact/33612340001")).body.contact;
  assert.equal(lea.firstname, "Léa");
  assert.deepEqual(lea.tags, ["vip", "salon"]);
  assert.equal(lea.fields.ville, "Lyon", JSON.stringify(lea));
  assert.equal(lea.consent.source, "form");
  assert.equal(lea.consent.opt_in_date, "2026-09-14 00:00:00");
  assert.equal(lea.consent.proof, "Formulaire d'inscription du salon");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
