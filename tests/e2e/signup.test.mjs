// Sign-up pages in Chromium: a marketer sets a page in the app (checked in the page), then a
// visitor on a phone fills the hosted form at /join/club (plain HTML, no script), gets the code
// by SMS from the built-in SMSC, types it and joins the list, in French and in English; each
// page is axe-clean and fits 390 px.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, PHONE } from "./app.mjs";

const suite = serveForTests();

/** The six-figure code of the last SMS the built-in SMSC got for `number`. */
async function codeFor(number) {
  const messages = await eventually(
    async () => (await api(suite.texto, "GET", `/simulator/messages?destination=${number}`)).body.messages ?? [],
    (got) => got.length > 0,
    `the code's SMS to ${number}`,
  );
  return messages[0].text.match(/\d{6}/)[0];
}

test("a marketer sets a sign-up page and visitors join its list once they typed the code", async () => {
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Club" } });
  assert.equal(list.status, 200, JSON.stringify(list.body));

  const app = await openApp(suite.browser, suite.texto, { path: "/app/signup-pages" });
  await app.getByRole("heading", { name: "Sign-up pages", level: 1 }).waitFor();
  await app.getByTestId("signup-pages").getByText("No sign-up page yet").waitFor();
  await app.getByLabel(/^Address: \/join/).fill("Club Nature");
  await app.getByLabel("Title", { exact: true }).fill("Le Club Nature");
  await app.getByLabel("Text under the title").fill("Nos sorties et nos offres, deux fois par mois.");
  await app.getByLabel(/^Fields asked/).fill("firstname, city");
  await app.getByLabel("List joined").selectOption({ label: "Club" });
  await app.getByLabel("Consent the visitor ticks").fill("J’accepte de recevoir les SMS du Club Nature. STOP au 36xxx pour ne plus en recevoir.");
  // A slug with a space is caught in the page, by the path the server would name.
  await app.getByRole("button", { name: "Save" }).click();
  await app.getByRole("alert").filter({ hasText: "signup_page.slug" }).waitFor();
  await app.getByLabel(/^Address: \/join/).fill("club");
  await app.getByRole("button", { name: "Save" }).click();
  await app.getByRole("link", { name: "/join/club" }).waitFor();
  await assertAccessible(app, "Sign-up pages");
  await screenshots(app, "signup-pages");
  await app.context().close();

  // A visitor on a phone, in French: the form, the code, the thanks.
  const visitor = await openApp(suite.browser, suite.texto, { path: "/join/club", token: null, locale: "fr-FR", viewport: PHONE });
  await visitor.getByRole("heading", { name: "Le Club Nature", level: 1 }).waitFor();
  await assertAccessible(visitor, "the sign-up form");
  await screenshots(visitor, "signup-form-fr");
  await visitor.getByLabel("Numéro de mobile").fill("06 17 17 18 01");
  await visitor.getByLabel("Prénom").fill("Ana");
  await visitor.getByLabel("City").fill("Lyon");
  await visitor.getByRole("button", { name: "S’inscrire" }).click();
  // Without the consent ticked, the form says what to correct and keeps what was typed.
  await visitor.getByRole("alert").getByText("À corriger").waitFor();
  assert.equal(await visitor.getByLabel("Prénom").inputValue(), "Ana");
  await visitor.getByLabel(/J’accepte de recevoir/).check();
  await visitor.getByRole("button", { name: "S’inscrire" }).click();
  await visitor.getByRole("heading", { name: "Confirmez votre inscription" }).waitFor();
  await assertAccessible(visitor, "the code page");
  await screenshots(visitor, "signup-code-fr");
  const members = async () => JSON.stringify((await api(suite.texto, "GET", `/list/${list.body.id}`)).body);
  assert.ok(!(await members()).includes("33617171801"), "not in the list before the code");
  await visitor.getByLabel("Code reçu par SMS").fill(await codeFor("33617171801"));
  await visitor.getByRole("button", { name: "Confirmer" }).click();
  await visitor.getByRole("heading", { name: "Merci !" }).waitFor();
  await screenshots(visitor, "signup-thanks-fr");
  assert.ok((await members()).includes("33617171801"));
  const card = (await api(suite.texto, "GET", "/contact/33617171801")).body.contact;
  assert.equal(card.firstname, "Ana");
  assert.match(card.consent.proof, /Club Nature.*typed on the page/);
  assert.deepEqual(visitor.errors, []);
  await visitor.context().close();

  // In English, by the link at the foot of the page.
  const english = await openApp(suite.browser, suite.texto, { path: "/join/club", token: null, locale: "fr-FR" });
  await english.getByRole("link", { name: "English" }).click();
  await english.getByRole("button", { name: "Sign up" }).waitFor();
  await english.getByLabel("Mobile number").fill("+33 6 17 17 18 02");
  await english.getByLabel(/J’accepte de recevoir/).check();
  await english.getByRole("button", { name: "Sign up" }).click();
  await english.getByRole("heading", { name: "Confirm your sign-up" }).waitFor();
  await english.getByLabel("Code received by SMS").fill(await codeFor("33617171802"));
  await english.getByRole("button", { name: "Confirm" }).click();
  await english.getByRole("heading", { name: "Thank you!" }).waitFor();
  await screenshots(english, "signup-thanks-en");
  const pages = (await api(suite.texto, "GET", "/signup-pages")).body.signup_pages;
  assert.equal(pages[0].confirmed, 2);
  await english.context().close();

  // The marketer, in French, sees the two confirmed sign-ups.
  const french = await openApp(suite.browser, suite.texto, { path: "/app/signup-pages", locale: "fr-FR" });
  await french.getByRole("heading", { name: "Pages d’inscription", level: 1 }).waitFor();
  await french.getByTestId("signup-pages").getByRole("cell", { name: "2", exact: true }).waitFor();
  assert.equal(await french.getByLabel("Liste rejointe").inputValue(), "", "the form starts empty");
  await assertAccessible(french, "Pages d’inscription");
  await screenshots(french, "signup-pages-fr");
  await french.context().close();
});
