// The team workspace in Chromium: an invitation link opened and accepted, an author's campaign
// waiting until a sender approves it in the app, the audit log showing both, the session
// cookie's flags, a cross-site style post refused, sign-in slowed after failures, and "Sign out
// everywhere" ending another device's session.
import { test } from "node:test";
import { createHmac } from "node:crypto";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, LAPTOP } from "./app.mjs";

const suite = serveForTests();
const PASSWORD = "a long passphrase";

/** Invites `email` with `role` through the API (as the demo owner's token); the link. */
async function invite(email, role) {
  const invited = await api(suite.texto, "POST", "/users", { user: { email, role } });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));
  return invited.body.invitation_url;
}

/** The current RFC 6238 code of a base32 `secret`, as an authenticator app computes it. */
function totp(secret) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret.replace(/=+$/, "")) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[19] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A new page signed in as `email` through the sign-in form. */
async function signedIn(email, options = {}) {
  const page = await openApp(suite.browser, suite.texto, { token: null, ...options });
  await page.getByLabel(/^(Email|E-mail)$/).fill(email);
  await page.getByLabel(/^(Password|Mot de passe)$/).fill(PASSWORD);
  await page.getByRole("button", { name: /^(Sign in|Se connecter)$/ }).click();
  await page.getByRole("navigation").waitFor();
  return page;
}

test("invite → open the link → join → the author sends → it waits → a sender approves → it goes; the audit shows both", async () => {
  const link = await invite("auteur@example.com", "author");
  assert.ok(link.startsWith(`${suite.texto.url}/app/invitation/`), link);
  const author = await openApp(suite.browser, suite.texto, { path: new URL(link).pathname, token: null });
  await author.getByRole("heading", { name: "Join your team on texto" }).waitFor();
  await assertAccessible(author, "the invitation page");
  await screenshots(author, "invitation");
  await author.getByLabel("Name").fill("Aurélie");
  await author.getByLabel("New password").fill(PASSWORD);
  await author.getByRole("button", { name: "Join" }).click();
  await author.getByRole("navigation").waitFor();
  await author.getByRole("heading", { name: "Home", level: 1 }).waitFor();
  assert.equal(new URL(author.url()).pathname, "/app/home", "Home is the first screen after joining");
  await author.getByRole("link", { name: "Compose", exact: true }).click();

  await author.getByLabel("Message", { exact: true }).fill("Vente privée ce soir");
  await author.getByLabel("Recipients", { exact: true }).fill("33622222222");
  await author.getByRole("button", { name: "Send", exact: true }).click();
  await author.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  await author.getByRole("link", { name: "See the campaign" }).click();
  await eventually(() => author.getByTestId("campaign-figures").textContent(), (t) => t.includes("Awaiting approval"), "awaiting approval");
  assert.equal(await author.getByRole("button", { name: "Approve" }).count(), 0, "an author approves nothing");
  const ticket = new URL(author.url()).pathname.split("/").pop();

  const sender = await openApp(suite.browser, suite.texto, { path: new URL(await invite("expediteur@example.com", "sender")).pathname, token: null });
  await sender.getByLabel("Name").fill("Sacha");
  await sender.getByLabel("New password").fill(PASSWORD);
  await sender.getByRole("button", { name: "Join" }).click();
  await sender.getByRole("link", { name: "Campaigns" }).click();
  await sender.getByRole("row").filter({ hasText: "Vente privée ce soir" }).getByRole("link").click();
  await sender.getByRole("button", { name: "Approve" }).waitFor();
  await assertAccessible(sender, "a campaign awaiting approval");
  await screenshots(sender, "approval");
  await sender.getByRole("button", { name: "Approve" }).click();
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${ticket}`)).body.campaign[0].status, (s) => s === "Sent", "the approved campaign sent");

  const owner = await openApp(suite.browser, suite.texto);
  await owner.getByRole("link", { name: "Team" }).click();
  await owner.getByRole("combobox", { name: "Role expediteur@example.com" }).waitFor();
  await assertAccessible(owner, "Team as the owner");
  await screenshots(owner, "team-owner");
  await owner.getByRole("link", { name: "Audit" }).click();
  const actions = () => owner.locator("table tbody td code").allTextContents();
  await eventually(actions, (a) => a.includes("campaign.approve") && a.includes("campaign.send") && a.includes("user.join"), "the audit lines");
  await owner.getByLabel("Who").fill("expediteur@example.com");
  await owner.getByLabel("Who").press("Enter");
  await eventually(actions, (a) => a.includes("campaign.approve") && !a.includes("campaign.send"), "the lines of the sender");
  await assertAccessible(owner, "the audit log");
  await screenshots(owner, "audit");
  for (const page of [author, sender, owner]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("the session cookie is HttpOnly and strict, a post without the CSRF header is refused, and failures slow sign-in", async () => {
  await api(suite.texto, "POST", `/invitation/${(await invite("analyste@example.com", "analyst")).split("/").pop()}`, { invitation: { name: "Ana", password: PASSWORD } });
  const page = await signedIn("analyste@example.com");
  const [cookie] = (await page.context().cookies()).filter((c) => c.name === "texto_session");
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, "Strict");
  assert.equal(await page.evaluate(() => document.cookie.includes("texto_session")), false, "scripts cannot read it");
  const forged = await page.evaluate(async () => (await fetch("/list", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"list":{"name":"x"}}' })).status);
  assert.equal(forged, 403, "the cookie alone does not make a change");
  assert.equal(await page.getByRole("link", { name: "Tokens" }).count(), 0);
  await page.context().close();

  const guesser = await openApp(suite.browser, suite.texto, { token: null });
  for (let i = 0; i < 5; i++) {
    await guesser.getByLabel("Email", { exact: true }).fill("analyste@example.com");
    await guesser.getByLabel("Password", { exact: true }).fill(`wrong guess ${i}`);
    await guesser.getByRole("button", { name: "Sign in", exact: true }).click();
    await guesser.getByText("The email or the password is wrong.").waitFor();
  }
  await guesser.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await guesser.getByRole("button", { name: "Sign in", exact: true }).click();
  await guesser.getByText("Too many failed attempts").waitFor();
  await guesser.context().close();
});

test("Sign out everywhere in Profile ends the sessions on other devices; French pages pass axe", async () => {
  await api(suite.texto, "POST", `/invitation/${(await invite("camille@example.com", "sender")).split("/").pop()}`, { invitation: { name: "Camille", password: PASSWORD } });
  const laptop = await signedIn("camille@example.com");
  const phone = await signedIn("camille@example.com", { locale: "fr-FR" });
  await phone.getByRole("link", { name: "Équipe" }).click();
  await phone.getByRole("cell", { name: "camille@example.com" }).waitFor();
  await assertAccessible(phone, "Équipe");
  await screenshots(phone, "team-fr");
  await phone.getByRole("link", { name: "Journal" }).click();
  await phone.getByRole("heading", { name: "Journal d’audit" }).waitFor();
  await assertAccessible(phone, "Journal d’audit");
  await screenshots(phone, "audit-fr");
  await phone.getByRole("link", { name: "Profil" }).click();
  await phone.getByLabel("Nom").waitFor();
  await eventually(() => phone.getByLabel("Nom").inputValue(), (v) => v === "Camille", "the name");
  await assertAccessible(phone, "Profil");
  await screenshots(phone, "profile-fr");
  await laptop.getByRole("link", { name: "Profile" }).click();
  await screenshots(laptop, "profile");
  await laptop.getByRole("button", { name: "Sign out everywhere" }).click();
  await laptop.getByLabel("Password", { exact: true }).waitFor();
  await phone.getByRole("link", { name: "Campagnes" }).click();
  await phone.getByText("Votre session a pris fin").waitFor();
  await laptop.setViewportSize(LAPTOP);
  await laptop.context().close();
  await phone.context().close();
});

test("two-factor sign-in set up on the profile from its QR code; then the sign-in form asks for the app's code and refuses a wrong one", async () => {
  await api(suite.texto, "POST", `/invitation/${(await invite("max@example.com", "sender")).split("/").pop()}`, { invitation: { name: "Max", password: PASSWORD } });
  const page = await signedIn("max@example.com");
  await page.getByRole("link", { name: "Profile" }).click();
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await page.getByRole("img", { name: "QR code to scan with an authenticator app" }).locator("svg").waitFor();
  const secret = (await page.getByTestId("two-factor-key").textContent()).trim();
  await assertAccessible(page, "the two-factor set-up");
  await screenshots(page, "two-factor-setup");
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByRole("alert").filter({ hasText: "this code is wrong or has expired" }).waitFor();
  await page.getByLabel("Authentication code").fill(totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByTestId("recovery-codes").waitFor();
  assert.equal(await page.getByTestId("recovery-codes").getByRole("listitem").count(), 10);
  const recovery = (await page.getByTestId("recovery-codes").getByRole("listitem").first().textContent()).trim();
  await assertAccessible(page, "the recovery codes");
  await screenshots(page, "two-factor-codes");
  const me = (await page.evaluate(async () => (await fetch("/me", { headers: { Accept: "application/json" } })).json()));
  assert.equal(me.user.two_factor, 1, JSON.stringify(me));
  await page.getByRole("button", { name: "Sign out", exact: true }).click();

  await page.getByLabel("Email", { exact: true }).fill("max@example.com");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByText("This code is wrong or has expired.").waitFor();
  await assertAccessible(page, "the authentication code step");
  await screenshots(page, "sign-in-code");
  await page.getByLabel("Authentication code").fill(totp(secret));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("navigation").waitFor();

  // Turning it off takes a code (here a recovery code) and the password: a session alone may not.
  await page.getByRole("link", { name: "Profile" }).click();
  const turnOff = page.getByRole("button", { name: "Turn off two-factor sign-in" });
  await turnOff.waitFor();
  await assertAccessible(page, "turning two-factor sign-in off");
  await screenshots(page, "two-factor-off");
  await page.getByText("Français", { exact: true }).click();
  await page.getByRole("button", { name: "Désactiver la connexion en deux étapes" }).waitFor();
  await assertAccessible(page, "turning two-factor sign-in off, in French");
  await screenshots(page, "two-factor-off-fr");
  await page.getByText("English", { exact: true }).click();
  await page.getByLabel("Authentication code").fill(recovery);
  await page.getByLabel("Password", { exact: true }).fill("not the password");
  await turnOff.click();
  await page.getByRole("alert").filter({ hasText: "password" }).waitFor();
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await turnOff.click();
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).waitFor();
  const after = await page.evaluate(async () => (await fetch("/me", { headers: { Accept: "application/json" } })).json());
  assert.equal(after.user.two_factor, 0, JSON.stringify(after));
  await page.context().close();
});

test("Settings' team rules: campaigns over the threshold wait, and Campaigns filters what awaits approval", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  const rules = page.locator("section").filter({ has: page.getByRole("heading", { name: "Team rules" }) });
  await rules.getByLabel("Ask approval for campaigns to more recipients than").fill("1");
  await rules.getByRole("button", { name: "Save" }).click();
  await rules.getByRole("status").waitFor();
  await assertAccessible(page, "Settings with the team rules");
  await screenshots(page, "team-rules");
  try {
    const gsm = (n) => Array.from({ length: n }, (_, i) => ({ value: `3364444444${i}` }));
    const send = async (text, n) => (await api(suite.texto, "POST", "/send", { sms: { message: { text, pushtype: "alert" }, recipients: { gsm: gsm(n) } } })).body.ticket;
    await send("Grande braderie", 3);
    await send("Rappel rendez-vous", 1);
    await page.getByRole("link", { name: "Campaigns" }).click();
    await page.getByLabel("Status").selectOption({ label: "Awaiting approval" });
    await page.getByRole("row").filter({ hasText: "Grande braderie" }).waitFor();
    assert.equal(await page.getByRole("row").filter({ hasText: "Rappel rendez-vous" }).count(), 0);
    await assertAccessible(page, "Campaigns awaiting approval");
  } finally {
    await api(suite.texto, "PUT", "/team-rules", { team_rules: { approval_over: 0 } });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a campaign rejected in the app shows why, and its credits are back", async () => {
  const made = await api(suite.texto, "POST", "/token", { token: { name: "Rédaction", role: "author" } });
  const sent = await fetch(`${suite.texto.url}/send`, {
    method: "POST",
    headers: { Authorization: `Bearer ${made.body.token}`, Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ sms: { message: { text: "Promo du mauvais jour", pushtype: "alert" }, recipients: { gsm: [{ value: "33655555555" }] } } }),
  });
  const ticket = (await sent.json()).ticket;
  const before = Number((await api(suite.texto, "GET", "/credits")).body.credits);
  const page = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${ticket}` });
  await page.getByLabel("Reason").fill("Wrong day");
  await page.getByRole("button", { name: "Reject" }).click();
  await page.getByTestId("rejection").filter({ hasText: "Wrong day" }).waitFor();
  assert.ok(Number((await api(suite.texto, "GET", "/credits")).body.credits) > before, "the credits came back");
  await assertAccessible(page, "a rejected campaign");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a person keeps their mobile number in Profile, and Compose's test with no number goes to it", async () => {
  await api(suite.texto, "POST", `/invitation/${(await invite("ines@example.com", "sender")).split("/").pop()}`, { invitation: { name: "Inès", password: PASSWORD } });
  const page = await signedIn("ines@example.com", { locale: "fr-FR" });
  await page.getByRole("link", { name: "Profil" }).click();
  const phone = page.getByLabel("Votre numéro de mobile", { exact: true });
  await eventually(() => page.getByLabel("Nom").inputValue(), (v) => v === "Inès", "le profil chargé");
  await phone.fill("06 12");
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await page.getByText(/international form/).first().waitFor();
  await phone.fill("+33 6 12 34 59 71");
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await page.getByRole("status").filter({ hasText: "Enregistré" }).waitFor();
  await assertAccessible(page, "le profil avec un numéro");
  await screenshots(page, "profile-phone-fr");

  await page.getByRole("link", { name: "Composer" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Test sur mon téléphone");
  await page.getByLabel("Destinataires", { exact: true }).fill("33612345972");
  await page.getByRole("button", { name: "Envoyer un test", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Test envoyé" }).waitFor();
  const received = async () => (await api(suite.texto, "GET", "/simulator/messages?destination=33612345971")).body.messages;
  await eventually(received, (m) => m.length === 1 && m[0].text === "Test sur mon téléphone", "le test sur son téléphone");
  await page.context().close();
});
