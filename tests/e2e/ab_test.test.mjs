// A/B tests as marketing staff run them: Compose tries a second text on a sample (the
// simulation shows the sample and the rest), and the campaign's report compares the texts and
// sends the chosen one to the rest, in English and in French, at laptop and phone widths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, assertAccessible, eventually, openApp, screenshots, api, PHONE } from "./app.mjs";

const suite = serveForTests(["--builtin-dlr-delay-ms", "50"]);

test("Compose sets up an A/B test and the simulation shows the sample and the rest", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Soldes : -20 % aujourd’hui");
  await page.getByLabel("Try other texts on a sample first").check();
  await page.getByLabel("Text B", { exact: true }).fill("Soldes : -20 % jusqu’à minuit");
  await page.getByRole("button", { name: "Add a text", exact: true }).click();
  await page.getByLabel("Text C", { exact: true }).fill("Dernier jour : -20 %");
  // The phone preview shows the text chosen under it.
  assert.match(await page.getByTestId("preview-text").textContent(), /aujourd’hui/);
  await page.getByRole("group", { name: "Text in the preview" }).getByRole("radio", { name: "B", exact: true }).check();
  await eventually(() => page.getByTestId("preview-text").textContent(), (t) => t.includes("jusqu’à minuit"), "text B in the preview");
  await page.getByLabel("Sample (% of recipients)").fill("30");
  await page.getByLabel("Wait before choosing").selectOption("4h");
  await page.getByLabel("Best text by").selectOption("replies");
  const numbers = Array.from({ length: 10 }, (_, i) => `3361234570${i}`).join("\n");
  await page.getByLabel("Recipients", { exact: true }).fill(numbers);
  const simulation = page.getByTestId("simulation");
  // 30 % of ten is three, one per text; seven wait for the winner.
  await eventually(() => simulation.textContent(), (t) => /A\/B sample3Rest, after the winner7/.test(t), "the sample and the rest");
  await eventually(() => simulation.textContent(), (t) => t.includes("what the winner does not take comes back"), "the cost note");
  // The server agrees with the page.
  await page.getByRole("button", { name: "Check with server" }).click();
  await eventually(() => page.getByTestId("server-check").textContent(), (t) => t.includes("simulation gives the same figures"), "the server agrees");
  await assertAccessible(page, "compose with an A/B test");
  await screenshots(page, "compose-ab-test");

  // A share out of bounds is refused in the page, with the reason.
  await page.getByLabel("Sample (% of recipients)").fill("80");
  await eventually(() => simulation.textContent(), (t) => t.includes("must be 5 to 50 (percent), not 80"), "the share refused");
  await page.getByRole("group", { name: "Text in the preview" }).getByRole("radio", { name: "C", exact: true }).check();
  await page.getByRole("button", { name: "Remove this text C", exact: true }).click();
  assert.equal(await page.getByLabel("Text C", { exact: true }).count(), 0);
  // The text shown is gone: the preview is back to the first.
  await eventually(() => page.getByTestId("preview-text").textContent(), (t) => t.includes("aujourd’hui"), "text A in the preview again");
  await page.context().close();

  // In French, on a phone.
  const fr = await openApp(suite.browser, suite.texto, { locale: "fr-FR", viewport: PHONE });
  await fr.getByLabel("Message", { exact: true }).fill("Soldes : -20 % aujourd’hui");
  await fr.getByLabel("Essayer d’autres textes sur un échantillon d’abord").check();
  await fr.getByLabel("Texte B", { exact: true }).fill("Soldes : -20 % jusqu’à minuit");
  await fr.getByLabel("Destinataires", { exact: true }).fill(numbers);
  await eventually(() => fr.getByTestId("simulation").textContent(), (t) => /Échantillon A\/B2Les autres, après le gagnant8/.test(t), "l’échantillon et les autres");
  await assertAccessible(fr, "Composer avec un test A/B");
  await screenshots(fr, "compose-ab-test-fr");
  await fr.context().close();
});

test("the report compares the texts and sends the chosen one to the rest, in French on a phone", async () => {
  const gsm = Array.from({ length: 10 }, (_, i) => ({ value: `3361234581${i}` }));
  const message = { text: "Offre A", variants: ["Offre B"], ab: { share: 20, wait: "24h", criterion: "delivered" }, pushtype: "alert" };
  const { status, body } = await api(suite.texto, "POST", "/send", { sms: { message, recipients: { gsm } } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.ab_sample, 2);

  // Both sample messages delivered before the page opens (its report is read once).
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${body.ticket}/report`)).body.report.delivered, (d) => d === 2, "the sample delivered");
  const page = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${body.ticket}` });
  const results = page.getByTestId("ab-results");
  await eventually(() => results.textContent(), (t) => /Offre A1100.*Offre B1100/.test(t), "one message per text");
  await eventually(() => page.getByTestId("ab-status").textContent(), (t) => t.startsWith("The best text is chosen on"), "when it is chosen");
  // Each text's first 48 hours, as an image with its own description.
  await page.getByRole("img", { name: /^Text B — The first 48 hours: 1 delivered, 0 clicks/i }).waitFor();
  await assertAccessible(page, "a report with an A/B test");
  await screenshots(page, "report-ab-test");
  await page.context().close();

  const fr = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${body.ticket}`, locale: "fr-FR", viewport: PHONE });
  await fr.getByRole("button", { name: "Envoyer aux autres (Texte B)" }).click();
  await eventually(() => fr.getByTestId("ab-status").textContent(), (t) => t === "Les autres ont reçu le texte B.", "« Les autres ont reçu le texte B. »");
  await eventually(() => fr.getByTestId("ab-results").textContent(), (t) => t.includes("Gagnant"), "le gagnant marqué");
  assert.equal(await fr.getByRole("button", { name: /Envoyer aux autres/ }).count(), 0, "no more choice once chosen");
  await assertAccessible(fr, "un rapport de test A/B");
  await screenshots(fr, "report-ab-test-fr");
  const { body: report } = await api(suite.texto, "GET", `/campaign/${body.ticket}/report`);
  assert.equal(report.report.ab.winner, 2);
  await fr.context().close();
});
