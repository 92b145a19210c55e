// Finding one's way: the side navigation groups the pages in sections, marks the current one
// for screen readers, puts the profile under the person's name, and folds behind a menu button
// on a phone; in English and in French, across both bundles of the app.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, assertAccessible, openApp, screenshots, PHONE } from "./app.mjs";

const suite = serveForTests();

test("the side navigation groups the pages and marks the current one", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/campaigns" });
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.waitFor();
  const sections = await nav.locator(".nav-section .nav-heading").allTextContents();
  assert.deepEqual(sections, ["Sending", "Audience", "Conversations", "Account"]);
  const audience = nav.getByRole("group", { name: "Audience" });
  assert.deepEqual(await audience.getByRole("link").allTextContents(), ["Contacts", "Segments", "Lists", "Sign-up pages", "Blacklist", "NPAI"]);
  assert.equal(await nav.getByRole("link", { name: "Campaigns" }).getAttribute("aria-current"), "page");
  assert.equal(await nav.locator('[aria-current="page"]').count(), 1, "one current page");
  await assertAccessible(page, "the side navigation");
  await screenshots(page, "navigation");

  // The profile sits under the person's name; another bundle's page marks itself too.
  await nav.getByRole("link", { name: "Profile" }).click();
  await page.getByRole("heading", { level: 1 }).waitFor();
  const onProfile = page.getByRole("navigation", { name: "Main" });
  assert.equal(await onProfile.getByRole("link", { name: "Profile" }).getAttribute("aria-current"), "page");
  assert.match(await onProfile.locator(".nav-person .nav-heading").textContent(), /Demo/);
  await page.context().close();
});

test("on a phone the navigation folds behind a menu button (in French)", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/home", locale: "fr-FR" });
  await page.setViewportSize(PHONE);
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.waitFor();
  assert.equal(await menu.getAttribute("aria-expanded"), "false");
  const nav = page.getByRole("navigation", { name: "Navigation principale" });
  assert.equal(await nav.isVisible(), false, "folded");
  await menu.click();
  assert.equal(await menu.getAttribute("aria-expanded"), "true");
  await nav.getByRole("group", { name: "Envois" }).waitFor();
  await assertAccessible(page, "le menu ouvert sur un téléphone");
  await page.screenshot({ path: `${process.env.TEXTO_SCREENSHOTS ?? "."}/navigation-menu-fr-phone.png`, fullPage: true });
  await nav.getByRole("link", { name: "Campagnes" }).click();
  await page.getByRole("heading", { name: "Campagnes", level: 1 }).waitFor();
  assert.equal(await menu.getAttribute("aria-expanded"), "false", "a page chosen folds it again");
  assert.equal(await nav.isVisible(), false);
  await page.context().close();
});
