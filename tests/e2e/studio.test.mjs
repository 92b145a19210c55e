// The campaign studio as marketing staff use it on a campaign's page: a campaign that is
// sending is paused (no new message leaves), resumed, paused again and cancelled, in English
// and in French; the credits of what was not handed over come back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, assertAccessible, eventually, openApp, screenshots, api } from "./app.mjs";

// One message a second: a campaign of thirty stays "sending" long enough to act on it.
const suite = serveForTests(["--smsc", "builtin?rate=1"]);

test("a sending campaign is paused, resumed and cancelled from its page", async () => {
  const gsm = Array.from({ length: 30 }, (_, i) => ({ value: `336123456${10 + i}` }));
  const { status, body } = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Rappel : rendez-vous demain", pushtype: "alert" }, recipients: { gsm } } });
  assert.equal(status, 200, JSON.stringify(body));
  const credits = async () => (await api(suite.texto, "GET", "/credits")).body.credits;

  const page = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${body.ticket}` });
  const figures = page.getByTestId("campaign-figures");
  await eventually(() => figures.textContent(), (t) => /StatusSending/.test(t), "the campaign sending");
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await eventually(() => figures.textContent(), (t) => /StatusPaused/.test(t), "the campaign paused");
  await page.getByRole("status").filter({ hasText: "no new message goes out" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Pause", exact: true }).count(), 0);
  await assertAccessible(page, "a paused campaign");
  await screenshots(page, "campaign-paused");

  const handed = async () => (await api(suite.texto, "GET", `/campaign/${body.ticket}`)).body.campaign[0].pending;
  const pendingWhenPaused = await handed();
  await page.waitForTimeout(2_500);
  assert.equal(await handed(), pendingWhenPaused, "nothing more leaves while paused");

  await page.getByRole("button", { name: "Resume", exact: true }).click();
  await eventually(() => figures.textContent(), (t) => /StatusSending/.test(t), "the campaign sending again");
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await eventually(() => figures.textContent(), (t) => /StatusPaused/.test(t), "paused again");
  await page.context().close();

  const before = Number(await credits());
  const fr = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${body.ticket}`, locale: "fr-FR" });
  const chiffres = fr.getByTestId("campaign-figures");
  await eventually(() => chiffres.textContent(), (t) => /StatutEn pause/.test(t), "« En pause »");
  await fr.getByRole("button", { name: "Reprendre", exact: true }).waitFor();
  await assertAccessible(fr, "une campagne en pause");
  await screenshots(fr, "campaign-paused-fr");
  // The wave being tried as it paused is given back first.
  await fr.waitForTimeout(1_500);
  await fr.getByRole("button", { name: "Annuler la campagne", exact: true }).click();
  await eventually(() => chiffres.textContent(), (t) => /StatutAnnulée/.test(t), "« Annulée »");
  const refunded = Number(await credits()) - before;
  assert.ok(refunded > 0 && refunded < 30, `what was not handed over comes back: ${refunded}`);
  await fr.context().close();
});
