// The campaign studio as marketing staff use it on a campaign's page: a campaign that is
// sending is paused (no new message leaves), resumed, paused again and cancelled, in English
// and in French; the credits of what was not handed over come back.
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, assertAccessible, eventually, openApp, screenshots, api } from "./app.mjs";

// One message a second, two to a wave: a campaign of thirty stays "sending" long enough to act
// on it, and a pause stops it within a wave.
const suite = serveForTests(["--smsc", "builtin?rate=1&window=2", "--builtin-dlr-delay-ms", "100"]);

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

  // The wave being handed over as it paused finishes; then nothing more leaves.
  const delivered = async () => (await api(suite.texto, "GET", `/campaign/${body.ticket}`)).body.campaign[0].delivered;
  await page.waitForTimeout(3_000);
  const deliveredWhenPaused = await delivered();
  await page.waitForTimeout(2_500);
  assert.equal(await delivered(), deliveredWhenPaused, "nothing more leaves while paused");
  assert.ok(deliveredWhenPaused < 30);

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
  // The wave being handed over as it paused finishes first.
  await fr.waitForTimeout(3_000);
  await fr.getByRole("button", { name: "Annuler la campagne", exact: true }).click();
  await eventually(() => chiffres.textContent(), (t) => /StatutAnnulée/.test(t), "« Annulée »");
  const refunded = Number(await credits()) - before;
  assert.ok(refunded > 0 && refunded < 30, `what was not handed over comes back: ${refunded}`);
  await fr.context().close();
});

test("a message is saved as a template and a new campaign starts from it", async () => {
  const page = await openApp(suite.browser, suite.texto);
  const message = page.getByLabel("Message", { exact: true });
  await message.fill("Soldes d’hiver : -30 % ce week-end");
  await page.getByLabel(/^Marketing/).check();
  await page.getByLabel("Template name", { exact: true }).fill("Soldes d’hiver");
  await page.getByRole("button", { name: "Save as a template", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Template saved: Soldes d’hiver" }).waitFor();

  await message.fill("Autre chose");
  await page.getByLabel(/^Alert/).check();
  await page.getByLabel("Start from a template", { exact: true }).selectOption({ label: "Soldes d’hiver" });
  await eventually(() => message.inputValue(), (v) => v === "Soldes d’hiver : -30 % ce week-end", "the template's text");
  assert.ok(await page.getByLabel(/^Marketing/).isChecked(), "and its push type");
  await assertAccessible(page, "compose with a template");
  await screenshots(page, "compose-template");
  const { body } = await api(suite.texto, "GET", "/templates");
  assert.deepEqual(body.templates.map((t) => [t.name, t.pushtype]), [["Soldes d’hiver", "marketing"]]);
  await page.context().close();
});

test("Compose in French: templates, the GSM box and the validity say what they do", async () => {
  const page = await openApp(suite.browser, suite.texto, { locale: "fr-FR" });
  await page.getByLabel("Partir d’un modèle", { exact: true }).waitFor();
  await page.getByLabel("Message", { exact: true }).fill("Fête d’été : –20 % sur les crêpes… Venez goûter nos nouveautés, cœur fondant, tôt ce week-end !");
  await page.getByLabel(/^Rester dans l’alphabet GSM/).check();
  await eventually(() => page.getByTestId("smart-encoding").textContent(), (t) => /8 caractères remplacés : 1 SMS au lieu de 2 par destinataire/.test(t), "l’effet en français");
  await page.getByLabel("Validité (minutes)", { exact: true }).fill("90");
  await assertAccessible(page, "Composer en français");
  await screenshots(page, "compose-studio-fr");
  await page.context().close();
});

test("a draft is kept for the team, tested on one's phone, opened from Campaigns and discarded", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Vente privée ce soir à 19h");
  await page.getByLabel("Recipients", { exact: true }).fill("33612345701\n33612345702");
  await page.getByLabel("Send a test to (up to 10 numbers)", { exact: true }).fill("33612345790");
  await page.getByRole("button", { name: "Send a test", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Test sent as its own campaign" }).waitFor();
  await eventually(() => page.url(), (u) => /\/app\/compose\?draft=\d+$/.test(u), "saved first, as a draft");
  const id = page.url().match(/draft=(\d+)/)[1];
  const received = async () => (await api(suite.texto, "GET", "/simulator/messages?destination=33612345790")).body.messages;
  await eventually(received, (m) => m.length === 1 && m[0].text === "Vente privée ce soir à 19h", "the test on the phone");
  assert.deepEqual((await api(suite.texto, "GET", "/simulator/messages?destination=33612345701")).body.messages, [], "not the recipients");
  await assertAccessible(page, "compose with a draft and a test");
  await screenshots(page, "compose-draft-test");
  await page.context().close();

  const fr = await openApp(suite.browser, suite.texto, { path: "/app/campaigns", locale: "fr-FR" });
  const open = fr.getByRole("link", { name: `Ouvrir ${id}` });
  await open.waitFor();
  await assertAccessible(fr, "les brouillons de l’équipe");
  await screenshots(fr, "campaigns-drafts-fr");
  await open.click();
  await eventually(() => fr.getByLabel("Message", { exact: true }).inputValue(), (v) => v === "Vente privée ce soir à 19h", "le brouillon ouvert");
  await fr.getByRole("link", { name: "Campagnes" }).first().click();
  fr.once("dialog", (dialog) => dialog.accept());
  await fr.getByRole("button", { name: `Supprimer ${id}` }).click();
  await fr.getByText("Aucun brouillon").waitFor();
  assert.deepEqual((await api(suite.texto, "GET", "/drafts")).body.drafts, []);
  await fr.context().close();
});

test("UTM tagging is turned on in Settings, in French, and off again", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings", locale: "fr-FR" });
  const box = page.getByLabel("Baliser les liens courts");
  await box.check();
  assert.equal(await page.getByLabel("Source (utm_source)").inputValue(), "sms", "a starting value");
  await page.getByLabel("Support (utm_medium)").fill("texto");
  const section = page.getByRole("region", { name: "Baliser les liens pour l’analytique (UTM)" });
  await section.getByRole("button", { name: "Enregistrer" }).click();
  await section.getByRole("status").waitFor();
  assert.deepEqual((await api(suite.texto, "GET", "/settings")).body.settings.utm, { source: "sms", medium: "texto" });
  await assertAccessible(page, "le balisage UTM");
  await screenshots(page, "settings-utm-fr");
  await box.uncheck();
  await section.getByRole("button", { name: "Enregistrer" }).click();
  await eventually(async () => (await api(suite.texto, "GET", "/settings")).body.settings.utm, (utm) => utm === undefined, "turned off");
  await page.context().close();
});

test("a frequency cap is set in Settings and the server's check counts the capped number", async () => {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  await page.getByLabel("Cap marketing messages").check();
  await page.getByLabel("At most (messages)").fill("1");
  await page.getByLabel("In (days)").fill("7");
  const section = page.getByRole("region", { name: "Marketing frequency cap" });
  await section.getByRole("button", { name: "Save" }).click();
  await section.getByRole("status").waitFor();
  assert.deepEqual((await api(suite.texto, "GET", "/settings")).body.settings.marketing_cap, { messages: 1, days: 7 });
  await assertAccessible(page, "the frequency cap");
  await screenshots(page, "settings-cap");
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Soldes", pushtype: "marketing" }, recipients: { gsm: [{ value: "33612345950" }] } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Compose" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Encore des soldes");
  await page.getByLabel(/^Marketing/).check();
  await page.getByLabel("Recipients", { exact: true }).fill("33612345950\n33612345951");
  await page.getByRole("button", { name: "Check with server" }).click();
  const check = page.getByTestId("server-check");
  await eventually(() => check.textContent(), (t) => /Frequency cap reached—1/.test(t), "the capped number on the server");
  await api(suite.texto, "PUT", "/settings", { settings: { marketing_cap: null } });
  await page.context().close();
});

test("a campaign's report shows the funnel, the hours and the countries, in both languages", async () => {
  const numbers = ["33612346101", "33612346102", "33612346103"];
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Nouveautés <-short->", pushtype: "alert", links: ["https://shop.example/n"] }, recipients: { gsm: numbers.map((value) => ({ value })) } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const ticket = sent.body.ticket;
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${ticket}/report`)).body.report.delivered, (n) => n === 3, "every receipt");
  // The first recipient follows the link and buys: the shop credits the click.
  const [message] = (await api(suite.texto, "GET", `/simulator/messages?destination=${numbers[0]}`)).body.messages;
  const shortUrl = message.text.split(/\s+/).find((w) => w.includes("/s/"));
  assert.equal((await fetch(shortUrl, { redirect: "manual" })).status, 302);
  const converted = await api(suite.texto, "POST", "/conversion", { conversion: { click: shortUrl.split("/").at(-1), value: 49.9 } });
  assert.equal(converted.status, 200, JSON.stringify(converted.body));
  const page = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${ticket}` });
  const report = page.getByTestId("report");
  await eventually(() => report.getByTestId("report-rates").textContent(), (t) => /Delivered100%Click rate \(of delivered\)33\.3%.*Conversion rate \(of delivered\)33\.3%Conversions’ value49\.90/.test(t), "the rates");
  await report.getByRole("img", { name: /The first 48 hours: 3 Delivered, 1 Clicks/ }).waitFor();
  await report.getByRole("cell", { name: "FR" }).waitFor();
  await assertAccessible(page, "a campaign's report");
  await screenshots(page, "campaign-report");
  await page.context().close();
  const fr = await openApp(suite.browser, suite.texto, { path: `/app/campaigns/${ticket}`, locale: "fr-FR" });
  await eventually(() => fr.getByTestId("report-rates").textContent(), (t) => /Délivrés100\u00a0%.*Valeur des conversions49,90/.test(t), "les taux");
  await fr.getByRole("button", { name: "Exporter le rapport (CSV)" }).waitFor();
  await screenshots(fr, "campaign-report-fr");
  await fr.context().close();
});

test("the Templates page lists the team's templates, edits one and starts Compose from it", async () => {
  const created = await api(suite.texto, "POST", "/template", { template: { name: "Bienvenue", text: "Bienvenue chez nous !", pushtype: "alert" } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const page = await openApp(suite.browser, suite.texto, { path: "/app/templates" });
  const row = page.getByRole("row").filter({ hasText: "Bienvenue chez nous !" });
  await row.waitFor();
  await row.getByRole("button", { name: "Edit Bienvenue" }).click();
  await page.getByLabel("Message", { exact: true }).fill("Bienvenue chez nous, à très vite !");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("row").filter({ hasText: "à très vite" }).waitFor();
  await assertAccessible(page, "the Templates page");
  await screenshots(page, "templates");
  await page.getByRole("link", { name: "Use Bienvenue" }).click();
  await eventually(() => page.getByLabel("Message", { exact: true }).inputValue(), (v) => v === "Bienvenue chez nous, à très vite !", "Compose started from it");
  await page.getByLabel("Recipients", { exact: true }).fill("33612346201");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  const ticket = (await page.getByTestId("accepted").textContent()).match(/Ticket (\d+)/)[1];
  assert.equal((await api(suite.texto, "GET", `/campaign/${ticket}`)).body.campaign[0].template, created.body.template.id, "the campaign records it");
  await page.context().close();
});

test("registered senders: Compose offers them, Settings chooses the default (in French)", async () => {
  const texto = (...args) => execFileSync(process.env.TEXTO_BIN, [...args, "--db", suite.texto.db], { encoding: "utf8" }).trim();
  texto("sender", "add", "demo", "Boutique");
  texto("sender", "add", "demo", "Atelier");
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings", locale: "fr-FR" });
  const section = page.getByRole("region", { name: "Expéditeurs" });
  await section.getByLabel("Expéditeur par défaut").selectOption("Atelier");
  await section.getByRole("button", { name: "Enregistrer" }).click();
  await section.getByRole("status").waitFor();
  const { body } = await api(suite.texto, "GET", "/senders");
  assert.deepEqual(body.senders, [{ name: "Atelier", default: 1 }, { name: "Boutique", default: 0 }]);
  await assertAccessible(page, "les expéditeurs");
  await screenshots(page, "settings-senders-fr");
  await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Composer" }).click();
  await eventually(() => page.locator("#registered-senders option").evaluateAll((o) => o.map((e) => e.value)), (v) => v.join() === "Atelier,Boutique", "the senders offered");
  texto("sender", "remove", "demo", "Boutique");
  texto("sender", "remove", "demo", "Atelier");
  await page.context().close();
});

test("merge fields: a field is inserted and the preview reads a chosen contact's card, in both languages", async () => {
  const saved = await api(suite.texto, "PUT", "/contact/33612345861", { contact: { firstname: "Léa", fields: { ville: "Lyon" } } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const page = await openApp(suite.browser, suite.texto);
  const message = page.getByLabel("Message", { exact: true });
  await message.fill("Bonjour ");
  await page.getByLabel("Insert a field", { exact: true }).selectOption({ label: "First name" });
  await eventually(() => message.inputValue(), (v) => v === "Bonjour [firstname]", "the field inserted");
  await message.fill("Bonjour [firstname|vous], à bientôt à [field:ville|Paris] !");
  const phone = page.getByRole("figure", { name: "How recipients see the message" });
  await eventually(() => phone.textContent(), (t) => t.includes("Bonjour vous, à bientôt à Paris !"), "the fallbacks first");
  await page.getByLabel("Preview for a contact", { exact: true }).fill("06 12 34 58 61");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await eventually(() => phone.textContent(), (t) => t.includes("Bonjour Léa, à bientôt à Lyon !"), "the contact's values");
  await assertAccessible(page, "compose with merge fields");
  await screenshots(page, "compose-merge-fields");
  await page.getByRole("button", { name: "Back to the first recipient", exact: true }).click();
  await eventually(() => phone.textContent(), (t) => t.includes("Bonjour vous"), "the fallbacks again");
  await page.context().close();

  const fr = await openApp(suite.browser, suite.texto, { locale: "fr-FR" });
  await fr.getByLabel("Message", { exact: true }).fill("Bonjour [firstname|vous] !");
  await fr.getByLabel("Aperçu pour un contact", { exact: true }).fill("0612345861");
  await fr.getByRole("button", { name: "Afficher", exact: true }).click();
  const telephone = fr.getByRole("figure", { name: "Le message tel que les destinataires le voient" });
  await eventually(() => telephone.textContent(), (t) => t.includes("Bonjour Léa !"), "l’aperçu pour Léa");
  await fr.getByLabel("Aperçu pour un contact", { exact: true }).fill("abc");
  await fr.getByRole("button", { name: "Afficher", exact: true }).click();
  await fr.getByRole("alert").filter({ hasText: "Ce n’est pas un numéro de mobile." }).waitFor();
  await eventually(() => telephone.textContent(), (t) => t.includes("Bonjour vous !"), "plus l’aperçu de Léa");
  await assertAccessible(fr, "l’aperçu pour un contact");
  await screenshots(fr, "compose-merge-fields-fr");
  await fr.context().close();
});
