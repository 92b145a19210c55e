// Sub-accounts in Chromium: the owner creates one for a client from the account area (a second
// bundle, reached by a full page load), moves credits to it, switches into it from the header,
// sends from Compose there, and switches back; the client's owner signs in to their own space.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();
const PASSWORD = "a long passphrase";

test("create a sub-account, fund it, switch into it, send there, and its owner signs in to it alone", async () => {
  const page = await openApp(suite.browser, suite.texto);
  const marketingWasm = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name).filter((n) => n.endsWith(".wasm")));
  await page.getByRole("link", { name: "Sub-accounts" }).click();
  await page.getByRole("heading", { name: "Sub-accounts", level: 1 }).waitFor();
  const accountWasm = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name).filter((n) => n.endsWith(".wasm")));
  assert.ok(accountWasm.every((url) => url.includes("/app/account/")), `the account area runs its own bundle: ${accountWasm}`);
  assert.ok(marketingWasm.every((url) => !url.includes("/app/account/")), `Compose does not load it: ${marketingWasm}`);
  await page.getByText("No sub-account yet.").waitFor();

  await page.getByLabel("Name", { exact: true }).fill("Boulangerie Martin");
  await page.getByLabel("Its owner's email").fill("jeanne@boulangerie.example");
  await page.getByLabel("First name").fill("Jeanne");
  await page.getByLabel("Last name").fill("Martin");
  await page.getByLabel("Its owner's password").fill("short");
  await page.getByRole("button", { name: "Create the sub-account" }).click();
  await page.getByText("at least 10 characters", { exact: false }).first().waitFor();
  await page.getByLabel("Its owner's password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create the sub-account" }).click();
  const row = page.getByRole("row").filter({ hasText: "Boulangerie Martin" });
  await row.waitFor();
  await row.getByLabel("Credits to move to Boulangerie Martin").fill("25");
  await row.getByRole("button", { name: "Move" }).click();
  await eventually(() => row.textContent(), (text) => text.includes("25"), "the moved credits in the row");
  await assertAccessible(page, "Sub-accounts");
  await screenshots(page, "sub-accounts");

  // The switcher: the page reloads in the sub-account, its balance in the header.
  const switcher = page.getByRole("combobox", { name: "Account" });
  await switcher.selectOption({ label: "Boulangerie Martin" });
  await page.waitForLoadState("load");
  await eventually(() => page.getByTestId("credits").textContent(), (text) => text.includes("25"), "the sub-account's balance");
  await page.getByRole("link", { name: "Compose" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Croissants tout chauds");
  await page.getByLabel("Recipients", { exact: true }).fill("33633333333");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("link", { name: "See the campaign" }).waitFor();
  await assertAccessible(page, "Compose in a sub-account");
  await screenshots(page, "sub-account-compose");
  const parentCampaigns = (await api(suite.texto, "GET", "/campaigns")).body;
  assert.ok(!JSON.stringify(parentCampaigns).includes("Croissants"), "the campaign is the sub-account's");
  const listed = (await api(suite.texto, "GET", "/sub-accounts")).body["sub-accounts"];
  assert.equal(listed.length, 1);
  assert.ok(Number(listed[0].credits) < 25, `the sub-account paid: ${listed[0].credits}`);
  await page.getByRole("combobox", { name: "Account" }).selectOption({ label: "Own account" });
  await page.waitForLoadState("load");
  await eventually(() => page.getByTestId("credits").textContent(), (text) => !text.includes("…") && !/\b2[0-5][.,]/.test(text), "back in the own account");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // The client's owner signs in to the sub-account, and sees only it.
  const client = await openApp(suite.browser, suite.texto, { token: null, locale: "fr-FR" });
  await client.getByLabel("E-mail", { exact: true }).fill("jeanne@boulangerie.example");
  await client.getByLabel("Mot de passe", { exact: true }).fill(PASSWORD);
  await client.getByRole("button", { name: "Se connecter", exact: true }).click();
  await client.getByRole("link", { name: "Campagnes" }).click();
  await client.getByRole("row").filter({ hasText: "Croissants tout chauds" }).waitFor();
  assert.equal(await client.getByRole("combobox", { name: "Compte" }).count(), 0, "a sub-account has no switcher");
  await client.getByRole("link", { name: "Sous-comptes" }).click();
  await client.getByText("Aucun sous-compte pour l’instant.").waitFor();
  await assertAccessible(client, "Sous-comptes (fr)");
  await screenshots(client, "sub-accounts-fr");
  assert.deepEqual(client.errors, []);
  await client.context().close();
});
