// Journeys in Chromium: a welcome is built step by step (a send, a wait, a branch on the click
// with its own step indented), checked in the page before it is saved, put live, and once a
// number joins its list, each step shows how many reached it and wait there; in French too.
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
  await page.getByLabel("Who enters").selectOption({ label: "Who joins the list Club" });
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
