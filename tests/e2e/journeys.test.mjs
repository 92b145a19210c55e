// Journeys in Chromium: a welcome is built step by step (a send, a wait, a branch on the click
// with its own step indented), checked in the page before it is saved, put live, and once a
// number joins its list, each step shows how many reached it and wait there; in French too. A
// birthday and a weekly offer to a segment are built with the clock's triggers and a wait until
// Monday 10:00, and a club with a keyword trigger.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

test("a welcome journey is built, checked in the page, put live and shows where its contacts are", async () => {
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Club" } });
  assert.equal(list.status, 200, JSON.stringify(list.body));

  const page = await openApp(suite.browser, suite.texto, { path: "/app/journeys" });
  await page.getByRole("heading", { name: "Journeys", level: 1 }).waitFor();
  await page.getByTestId("journeys").getByText("No journey yet").waitFor();
  await page.getByLabel("Name").fill("Bienvenue");
  await page.getByLabel("Who enters").selectOption({ label: "Joins a list" });
  await page.getByLabel("Who joins the list").selectOption({ label: "Club" });
  const addStep = page.getByRole("button", { name: "Add a step" });
  await addStep.last().click();
  // An empty text is caught in the page, with the path the server would name.
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("alert").filter({ hasText: "journey.steps[0].text" }).waitFor();
  await page.getByLabel("Step 0 – text").fill("Bienvenue au club ! <-short->");
  await page.getByLabel("Step 0 – link for <-short-> (optional)").fill("https://club.example/offre");
  await addStep.last().click();
  await page.getByLabel("Step 1 – kind").selectOption({ label: "Wait" });
  await page.getByLabel("Step 1 – how long (30m, 2h, 3d)").fill("2d");
  await addStep.last().click();
  await page.getByLabel("Step 2 – kind").selectOption({ label: "If the contact…" });
  await page.getByLabel("Step 2 – test").selectOption({ label: "Clicked a link" });
  await page.locator('li[data-step="2"] .branch').getByRole("button", { name: "Add a step" }).first().click();
  await page.getByLabel("Step 2.then.0 – kind").selectOption({ label: "Tag the contact" });
  await page.getByLabel("Step 2.then.0 – Tag").fill("client");
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  const saved = (await api(suite.texto, "GET", "/journeys")).body.journeys[0];
  assert.deepEqual(saved.steps.map((s) => s.type), ["send", "wait", "branch"]);
  assert.deepEqual(saved.steps[2].then, [{ type: "tag", add: "client" }]);
  assert.equal(saved.trigger.list, list.body.id);

  await page.getByRole("button", { name: "Put live" }).click();
  await page.getByRole("heading", { name: /Edit journey – Live/ }).waitFor();
  const joined = await api(suite.texto, "PUT", `/list/${list.body.id}`, { list: { contacts: { gsm: [{ value: "33617171701" }] } } });
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  // The runner welcomes the joiner, who then waits two days at step 1.
  await eventually(async () => (await api(suite.texto, "GET", `/journey/${saved.id}/report`)).body.steps[1].waiting, (n) => n === 1, "the joiner waits");
  await page.getByRole("button", { name: "Edit Bienvenue" }).click();
  await page.locator('li[data-step="1"] .step-counts').filter({ hasText: "1 reached · 1 here now · 0 went on" }).waitFor();
  await page.locator('li[data-step="0"] .step-counts').filter({ hasText: "1 reached · 0 here now · 1 went on" }).waitFor();
  // A trial run with a number: its way, step by step; nothing is sent.
  await page.getByLabel("Number", { exact: true }).fill("33617171799");
  await page.getByRole("button", { name: "Show the way" }).click();
  await page.getByTestId("journey-trial").locator("li").nth(2).waitFor();
  const way = await page.getByTestId("journey-trial").locator("li").allTextContents();
  assert.deepEqual(way, ["Step 0 – Send a message", "Step 1 – Wait", "Step 2 – no: Otherwise"]);
  await assertAccessible(page, "Journeys");
  await screenshots(page, "journeys");
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/journeys" });
  await french.getByRole("heading", { name: "Parcours", level: 1 }).waitFor();
  await french.getByRole("button", { name: "Modifier Bienvenue" }).click();
  await french.getByRole("heading", { name: /Modifier le parcours – En service/ }).waitFor();
  await french.getByText("Alors").waitFor();
  await assertAccessible(french, "Parcours en français");
  await screenshots(french, "journeys-fr");
  await french.context().close();
});

test("a birthday and a weekly offer to a segment are built with the clock's triggers", async () => {
  const segment = await api(suite.texto, "POST", "/segment", { segment: { name: "VIP", rules: [{ type: "tag", value: "vip" }] } });
  assert.equal(segment.status, 200, JSON.stringify(segment.body));
  const page = await openApp(suite.browser, suite.texto, { path: "/app/journeys" });
  await page.getByRole("heading", { name: "Journeys", level: 1 }).waitFor();
  await page.getByLabel("Name").fill("Anniversaire");
  await page.getByLabel("Who enters").selectOption({ label: "A date of the contact (birthday…)" });
  // The usual choice is filled in: the birthday field, each year, on the day, at 09:00.
  assert.equal(await page.getByLabel("Field holding the date (YYYY-MM-DD)").inputValue(), "birthday");
  await page.getByLabel("Time, in the contact's own time").fill("08:30");
  const addStep = page.getByRole("button", { name: "Add a step" });
  await addStep.last().click();
  await page.getByLabel("Step 0 – text").fill("Joyeux anniversaire [firstname|] !");
  await addStep.last().click();
  await page.getByLabel("Step 1 – kind").selectOption({ label: "Wait" });
  await page.getByLabel("Step 1 – how", { exact: true }).selectOption({ label: "until" });
  await page.getByLabel("Step 1 – time, the contact's own").fill("10:00");
  await page.getByLabel("Step 1 – day").selectOption({ label: "Monday" });
  await addStep.last().click();
  await page.getByLabel("Step 2 – text").fill("Votre cadeau vous attend.");
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  await assertAccessible(page, "A birthday journey");
  await screenshots(page, "journeys-birthday");
  let saved = (await api(suite.texto, "GET", "/journeys")).body.journeys.find((j) => j.name === "Anniversaire");
  assert.deepEqual(saved.trigger, { type: "date", field: "birthday", every: "year", offset: "0d", at: "08:30" });
  assert.deepEqual(saved.steps[1], { type: "wait", until: "10:00", days: ["mon"] });

  await page.getByRole("button", { name: "New journey" }).click();
  await page.getByLabel("Name").fill("Offre de la semaine");
  await page.getByLabel("Who enters").selectOption({ label: "A segment, on a schedule" });
  await page.getByLabel("Segment", { exact: true }).selectOption({ label: "VIP" });
  await page.getByRole("checkbox", { name: "Friday" }).check();
  await page.getByLabel("Time (Paris)").fill("11:00");
  await addStep.last().click();
  await page.getByLabel("Step 0 – text").fill("Offre de la semaine");
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  saved = (await api(suite.texto, "GET", "/journeys")).body.journeys.find((j) => j.name === "Offre de la semaine");
  assert.deepEqual(saved.trigger, { type: "schedule", segment: segment.body.segment.id, every: "week", at: "11:00", days: ["mon", "fri"] });
  await page.getByTestId("journeys").getByText("A segment, on a schedule").waitFor();
  await screenshots(page, "journeys-schedule");

  await page.getByRole("button", { name: "New journey" }).click();
  await page.getByLabel("Name").fill("Club");
  await page.getByLabel("Who enters").selectOption({ label: "Replies with a keyword" });
  await page.getByLabel("Keyword (the reply's first word)").fill("club");
  await page.getByLabel("Leaves the journey when they").selectOption({ label: "Replied with a keyword" });
  await page.locator("#journey-exit-keyword").fill("fini");
  await addStep.last().click();
  await page.getByLabel("Step 0 – text").fill("Bienvenue au club !");
  await addStep.last().click();
  await page.getByLabel("Step 1 – kind").selectOption({ label: "If the contact…" });
  await page.getByLabel("Step 1 – test").selectOption({ label: "Is in a segment" });
  await page.getByLabel("Step 1 – Is in a segment").selectOption({ label: "VIP" });
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  saved = (await api(suite.texto, "GET", "/journeys")).body.journeys.find((j) => j.name === "Club");
  assert.deepEqual(saved.trigger, { type: "keyword", keyword: "CLUB" });
  assert.deepEqual(saved.exit, { type: "keyword", value: "FINI" });
  assert.deepEqual(saved.steps[1].if, { type: "segment", segment: segment.body.segment.id });
  await assertAccessible(page, "A keyword journey with an exit test and a segment branch");

  await page.getByRole("button", { name: "New journey" }).click();
  await page.getByLabel("Name").fill("Nouveaux VIP");
  await page.getByLabel("Who enters").selectOption({ label: "Starts matching a segment" });
  await page.getByLabel("Segment", { exact: true }).selectOption({ label: "VIP" });
  await addStep.last().click();
  await page.getByLabel("Step 0 – text").fill("Bienvenue parmi nos VIP !");
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  saved = (await api(suite.texto, "GET", "/journeys")).body.journeys.find((j) => j.name === "Nouveaux VIP");
  assert.deepEqual(saved.trigger, { type: "segment", segment: segment.body.segment.id });

  // A webhook step tells the shop's CRM, and at most 500 may be in the journey at once.
  await page.getByRole("button", { name: "New journey" }).click();
  await page.getByLabel("Name").fill("CRM");
  await page.getByLabel(/^At most this many in it at once/).fill("500");
  await addStep.last().click();
  await page.getByLabel("Step 0 – kind").selectOption({ label: "Call a webhook" });
  await page.getByLabel(/^Step 0 – address/).fill("https://crm.example/texto");
  await page.getByRole("button", { name: "Save journey" }).click();
  await page.getByRole("heading", { name: /Edit journey – Draft/ }).waitFor();
  saved = (await api(suite.texto, "GET", "/journeys")).body.journeys.find((j) => j.name === "CRM");
  assert.deepEqual(saved.steps, [{ type: "webhook", url: "https://crm.example/texto" }]);
  assert.equal(saved.most_at_once, 500);
  const hooks = (await api(suite.texto, "GET", "/webhook")).body.webhooks;
  assert.deepEqual(hooks.map((h) => [h.type, h.url]), [["JOURNEY", "https://crm.example/texto"]]);
  await assertAccessible(page, "A journey with a webhook step and a cap");
  await screenshots(page, "journeys-webhook");
  await page.goto(page.url().replace(/\/app\/.*$/, "/app/webhooks"));
  // The webhook the step added is listed with its type, JOURNEY.
  await page.getByTestId("webhook").filter({ hasText: "crm.example" }).getByText("JOURNEY").waitFor();
  await screenshots(page, "webhooks-journey");
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/journeys" });
  await french.getByRole("button", { name: "Modifier Anniversaire" }).click();
  await french.getByLabel("Heure, à l’heure locale du contact").waitFor();
  await assertAccessible(french, "Un parcours d’anniversaire en français");
  await screenshots(french, "journeys-birthday-fr");
  await french.context().close();
});
