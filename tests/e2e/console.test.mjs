// The operator's console in Chromium: sign-in with an operator's token (an account's
// token is refused), accounts (create, credits with the ledger, plan, moderation, limit,
// suspend and restore), connectors and routes with their live status, the moderation queue
// (release, refuse with a reason), the traffic chart and the operators' log; English at laptop
// width, French at phone width, axe-clean, screenshots of every page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, PHONE } from "./app.mjs";

const suite = serveForTests();

function texto(...args) {
  return execFileSync(process.env.TEXTO_BIN, [...args, "--db", suite.texto.db], { encoding: "utf8" }).trim();
}

function sms(numbers, text) {
  return { sms: { message: { text, pushtype: "alert" }, recipients: { gsm: numbers.map((value) => ({ value })) } } };
}

/** The console signed in with `token`, in `locale`. */
async function openConsole(token, { locale = "en-GB", viewport } = {}) {
  const page = await openApp(suite.browser, suite.texto, { path: "/app/operator", token: null, locale, viewport });
  await page.getByText(/^(Sign in with an operator token|Se connecter avec un jeton d’opérateur)$/).click();
  await page.getByLabel(/^(Operator token|Jeton d’opérateur)$/).fill(token);
  await page.getByRole("button", { name: /^(Sign in with the token|Se connecter avec le jeton)$/ }).click();
  return page;
}

test("an operator runs accounts, carriers, moderation, traffic and the log from the console", async () => {
  const operator = texto("operator", "create", "Night shift");
  texto("plan", "set", "partner", "--country", "FR=0.5", "--other", "3");
  texto("moderation", "add-pattern", "cr[ée]dit\\s+rapide");
  texto("moderation", "new-accounts", "on");
  const sent = await api(suite.texto, "POST", "/send", sms(["33612345601", "33612345602", "33612345603"], "Rendez-vous jeudi"));
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  // The running texto reads the rules each second; the margin is a loaded machine's.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const held = await api(suite.texto, "POST", "/send", sms(["33612345604"], "Votre crédit rapide en 24h"));
  assert.equal(held.status, 202, JSON.stringify(held.body));
  const second = await api(suite.texto, "POST", "/send", sms(["33612345605"], "Un autre crédit rapide"));
  assert.equal(second.status, 202);

  // An account's token does not open the console.
  const page = await openConsole(suite.texto.token);
  await page.getByText("This token is not an operator’s").waitFor();
  assert.deepEqual(page.errors, ["Failed to load resource: the server responded with a status of 403 (Forbidden)"]);
  page.errors.length = 0;
  await page.getByLabel("Operator token").fill(operator);
  await page.getByRole("button", { name: "Sign in with the token" }).click();
  await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor();
  const accounts = page.getByTestId("accounts");
  await accounts.getByRole("row").filter({ hasText: "demo" }).waitFor();

  // A new account, with credits added, put on a plan, moderated and limited, then suspended.
  // New accounts are moderated by default here: the form starts ticked.
  await eventually(() => page.getByLabel("Hold every campaign for moderation").isChecked(), (c) => c === true, "the new account ticked for moderation");
  await page.getByLabel("Name").fill("Boulangerie Martin");
  await page.getByLabel("Opening credits").fill("100");
  await page.getByRole("button", { name: "Create the account" }).click();
  await page.getByText("Account created: Boulangerie Martin").waitFor();
  const martin = accounts.getByRole("row").filter({ hasText: "Boulangerie Martin" });
  await martin.getByRole("button", { name: "Manage Boulangerie Martin" }).click();
  const manage = page.getByTestId("manage");
  await manage.getByLabel("Credits to add").fill("49.5");
  await manage.getByRole("button", { name: "Add credits" }).click();
  const ledger = page.getByTestId("ledger");
  await eventually(() => ledger.getByRole("row").count(), (n) => n === 3, "two top-ups in the ledger (and its heading row)");
  assert.equal(await manage.getByRole("button", { name: "Older" }).isDisabled(), true, "one page of movements");
  await manage.getByLabel("Price plan").selectOption("partner");
  await manage.getByLabel("Limit (msg/s)").fill("20");
  await manage.getByLabel("Hold every campaign for moderation").check();
  await manage.getByRole("button", { name: "Save" }).click();
  await eventually(() => martin.textContent(), (t) => t.includes("149.5") && t.includes("partner") && t.includes("Yes") && t.includes("20"), "the account's new settings");
  await assertAccessible(page, "the console's accounts");
  await screenshots(page, "console-accounts-en");
  await page.getByTestId("manage").getByRole("button", { name: "Suspend the account" }).click();
  await eventually(() => martin.textContent(), (t) => t.includes("Suspended"), "the account suspended");
  await page.getByTestId("manage").getByRole("button", { name: "Restore the account" }).click();
  await eventually(() => martin.textContent(), (t) => t.includes("Active"), "the account restored");

  // Carriers: a connector where nothing listens shows down with why; a route through it.
  await page.getByRole("link", { name: "Carriers and routes" }).click();
  await page.getByLabel("Connector name").fill("A");
  await page.getByLabel("SMSC URL").fill("smpp://texto:secret@127.0.0.1:9?window=10");
  await page.getByRole("button", { name: "Save the connector" }).click();
  const a = page.getByTestId("connectors").locator('tr[data-connector="A"]');
  await eventually(() => a.textContent(), (t) => t.includes("0/1") && t.includes("cannot bind"), "A's live status");
  assert.ok(!(await a.textContent()).includes("secret"), "no password shown");
  const def = page.getByTestId("connectors").locator('tr[data-connector="default"]');
  await eventually(() => def.textContent(), (t) => t.includes("1/1"), "default bound");
  await page.getByLabel("Connectors", { exact: true }).fill("A, default");
  await page.getByLabel("Destination").fill("FR");
  await page.getByLabel("Type").selectOption("marketing");
  await page.getByLabel("Price plan").selectOption("partner");
  await page.getByRole("button", { name: "Add the route" }).click();
  const route = page.getByTestId("routes").getByRole("row").filter({ hasText: "A → default" });
  await eventually(() => route.textContent(), (t) => t.includes("FR") && t.includes("marketing") && t.includes("partner"), "the route");
  await assertAccessible(page, "the console's carriers and routes");
  await screenshots(page, "console-carriers-en");
  await route.getByRole("button", { name: /^Remove/ }).click();
  await route.waitFor({ state: "detached" });
  await a.getByRole("button", { name: "Disable A" }).click();
  await eventually(() => a.textContent(), (t) => t.includes("No"), "A disabled");

  // Moderation: one released, one refused with a reason (its credits given back).
  await page.getByRole("link", { name: "Moderation" }).click();
  const queue = page.getByTestId("moderation");
  const first = queue.locator(`tr[data-ticket="${held.body.ticket}"]`);
  await first.waitFor();
  await page.getByTestId("new-accounts").getByText("New accounts are moderated unless their creation says otherwise.").waitFor();
  const rules = page.getByTestId("moderation-rules");
  await rules.getByText("cr[ée]dit\\s+rapide").waitFor();
  await assertAccessible(page, "the console's moderation queue");
  await screenshots(page, "console-moderation-en");
  await first.getByRole("button", { name: `Release ${held.body.ticket}` }).click();
  await first.waitFor({ state: "detached" });
  const other = queue.locator(`tr[data-ticket="${second.body.ticket}"]`);
  await other.getByLabel(`Reason for refusing campaign ${second.body.ticket}`).fill("Crédit à la consommation sans mention légale");
  await other.getByRole("button", { name: "Refuse" }).click();
  await page.getByText("No campaign waits for moderation.").waitFor();
  await eventually(
    async () => (await api(suite.texto, "GET", `/campaign/${held.body.ticket}`)).body.campaign?.[0]?.delivered,
    (delivered) => delivered === 1,
    "the released campaign delivered",
  );
  const refused = await api(suite.texto, "GET", `/campaign/${second.body.ticket}`);
  assert.match(JSON.stringify(refused.body), /cancel/i, JSON.stringify(refused.body));

  // The rules: a domain added (a wrong one refused), then removed; new accounts no longer moderated.
  await page.getByLabel("Type", { exact: true }).selectOption("domain");
  await page.getByLabel("Rule", { exact: true }).fill("pas un domaine");
  await page.getByRole("button", { name: "Add the rule" }).click();
  await page.getByText("is not a domain", { exact: false }).first().waitFor();
  await page.getByLabel("Rule", { exact: true }).fill("Arnaque.example");
  await page.getByRole("button", { name: "Add the rule" }).click();
  const domainRule = rules.getByRole("row").filter({ hasText: "arnaque.example" });
  await domainRule.waitFor();
  assert.match(await domainRule.textContent(), /Link domain/);
  await assertAccessible(page, "the console's moderation rules");
  await screenshots(page, "console-moderation-rules-en");
  await page.waitForTimeout(2_500);
  const linked = await api(suite.texto, "POST", "/send", sms(["33612345606"], "Voir https://promo.arnaque.example/x"));
  assert.equal(linked.status, 202, `held by the console's rule: ${JSON.stringify(linked.body)}`);
  await domainRule.getByRole("button", { name: "Remove arnaque.example" }).click();
  await domainRule.waitFor({ state: "detached" });
  // The page read again: the campaign the rule held waits in the queue.
  await queue.locator(`tr[data-ticket="${linked.body.ticket}"]`).getByText("arnaque.example", { exact: false }).first().waitFor();
  await page.getByRole("button", { name: "Stop moderating new accounts" }).click();
  await page.getByTestId("new-accounts").getByText("New accounts are not moderated unless their creation says so.").waitFor();
  assert.match(texto("moderation", "list"), /new accounts moderated: off/);

  // Price plans: partner (from the command line) edited, gold created; a wrong price refused.
  await page.getByRole("link", { name: "Price plans" }).click();
  const plans = page.getByTestId("plans");
  await plans.locator('tr[data-plan="partner"]').getByText("FR 0.50").waitFor();
  assert.match(await plans.locator('tr[data-plan="shipped"]').textContent(), /shipped \(texto’s prices\).*FR\s1 .*2\.50/);
  await plans.getByRole("button", { name: "Edit partner" }).click();
  assert.equal(await page.getByLabel("Prices by country").inputValue(), "FR=0.5");
  assert.equal(await page.getByLabel("Plan name").inputValue(), "partner");
  await page.getByLabel("Prices by country").fill("FR=0.45, BE=1");
  await page.getByRole("button", { name: "Save the plan" }).click();
  await plans.locator('tr[data-plan="partner"]').getByText("BE 1 · FR 0.45").waitFor();
  await page.getByLabel("Plan name").fill("gold");
  await page.getByLabel("Prices by country").fill("FR=0.8 DE=abc");
  await page.getByRole("button", { name: "Save the plan" }).click();
  await page.getByText("\"abc\" is not an amount of credits").first().waitFor();
  await page.getByLabel("Prices by country").fill("FR=0.8, DE=1.2");
  await page.getByLabel("Other countries").fill("2");
  await page.getByRole("button", { name: "Save the plan" }).click();
  await plans.locator('tr[data-plan="gold"]').getByText("DE 1.20 · FR 0.80").waitFor();
  await assertAccessible(page, "the console's price plans");
  await screenshots(page, "console-plans-en");
  assert.match(texto("plan", "list"), /gold: DE=1\.2 FR=0\.8 other=2/);

  // Traffic: the last hour's messages to default, as a chart and a table.
  await page.getByRole("link", { name: "Traffic" }).click();
  const chart = page.getByTestId("traffic-chart");
  await chart.waitFor();
  assert.match(await chart.textContent(), /default · peak/);
  assert.equal(await chart.getByRole("img", { name: "Messages a second by connector over the last hour" }).count(), 1);
  await assertAccessible(page, "the console's traffic");
  await screenshots(page, "console-traffic-en");

  // The log: every change, newest first, by this operator.
  await page.getByRole("link", { name: "Log" }).click();
  const log = page.getByTestId("log");
  await log.getByRole("row").filter({ hasText: "campaign.refuse" }).waitFor();
  const text = await log.textContent();
  for (const action of ["account.create", "account.credit", "account.update", "account.suspend", "account.restore", "connector.save", "route.add", "route.remove", "connector.disable", "campaign.release", "moderation.rule_add", "moderation.rule_remove", "moderation.new_accounts", "plan.save"]) {
    assert.ok(text.includes(action), `the log has ${action}`);
  }
  assert.ok(text.includes("operator Night shift"));
  await assertAccessible(page, "the console's log");
  await screenshots(page, "console-log-en");

  // The ledger, 100 movements a page: Boulangerie Martin gets 100 more top-ups (through the API).
  const asOperator = { ...suite.texto, token: operator };
  const listedAccounts = (await api(asOperator, "GET", "/operator/accounts")).body.accounts;
  const martinId = listedAccounts.find((a) => a.name === "Boulangerie Martin").id;
  for (let i = 0; i < 100; i += 1) {
    const topUp = await api(asOperator, "POST", `/operator/account/${martinId}/credits`, { credits: 0.01 });
    assert.equal(topUp.status, 200, JSON.stringify(topUp.body));
  }
  await page.getByRole("link", { name: "Accounts" }).click();
  await accounts.getByRole("row").filter({ hasText: "Boulangerie Martin" }).getByRole("button", { name: "Manage Boulangerie Martin" }).click();
  await eventually(() => ledger.getByRole("row").count(), (n) => n === 101, "the newest 100 movements");
  await manage.getByRole("button", { name: "Older" }).click();
  await eventually(() => ledger.getByRole("row").count(), (n) => n === 3, "the two oldest on page 2");
  assert.match(await ledger.textContent(), /49\.5/);
  await manage.getByText("Page 2").waitFor();
  await manage.getByRole("button", { name: "Newer" }).click();
  await eventually(() => ledger.getByRole("row").count(), (n) => n === 101, "back to the newest");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an operator signs in with a password, in French at phone width, every page axe-clean", async () => {
  texto("operator", "create", "Équipe de nuit");
  execFileSync(process.env.TEXTO_BIN, ["operator", "password", "Équipe de nuit", "--db", suite.texto.db], { input: "nuit étoilée 2026\n" });
  const page = await openApp(suite.browser, suite.texto, { path: "/app/operator", token: null, locale: "fr-FR", viewport: PHONE });
  await assertAccessible(page, "la connexion à la console");
  await screenshots(page, "console-sign-in-fr");
  await page.getByLabel("Nom", { exact: true }).fill("Équipe de nuit");
  await page.getByLabel("Mot de passe").fill("mauvais mot de passe");
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
  await page.getByText("Le nom, le mot de passe ou le jeton est incorrect.").waitFor();
  await page.getByLabel("Mot de passe").fill("nuit étoilée 2026");
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
  await page.getByRole("heading", { name: "Comptes", level: 1 }).waitFor();
  const session = await page.evaluate(() => sessionStorage.getItem("texto.operator_token"));
  assert.match(session, /^texto_ops_/);
  await page.getByTestId("accounts").getByRole("row").filter({ hasText: "demo" }).waitFor();
  await page.getByRole("button", { name: "Gérer demo" }).click();
  await page.getByRole("heading", { name: "Relevé (du plus récent, 100 par page)" }).waitFor();
  await eventually(() => page.getByTestId("ledger").textContent(), (t) => t.includes("Recharge"), "the demo account's ledger in French");
  await assertAccessible(page, "les comptes");
  await screenshots(page, "console-accounts-fr");
  for (const [link, heading, name] of [
    ["Grilles tarifaires", "Grilles tarifaires", "plans"],
    ["Opérateurs et routes", "Opérateurs et routes", "carriers"],
    ["Modération", "File de modération", "moderation"],
    ["Trafic", "Trafic", "traffic"],
    ["Journal", "Journal des opérateurs", "log"],
  ]) {
    await page.getByRole("link", { name: link, exact: true }).click();
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
    await page.waitForTimeout(300);
    await assertAccessible(page, `la page ${name}`);
    await screenshots(page, `console-${name}-fr`);
  }
  const log = await (await fetch(`${suite.texto.url}/operator/audit`, { headers: { Authorization: `Bearer ${session}`, Accept: "application/json" } })).json();
  assert.equal(log.audit[0].action, "session.create");
  assert.equal(log.audit[0].actor, "operator Équipe de nuit");
  // Signing out ends the session on the server too.
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await page.getByLabel("Mot de passe").waitFor();
  const after = await fetch(`${suite.texto.url}/operator/accounts`, { headers: { Authorization: `Bearer ${session}`, Accept: "application/json" } });
  assert.equal(after.status, 401);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an operator registers an account's senders from the console, and the account's sends are bound to them", async () => {
  const operator = texto("operator", "create", "Senders desk");
  const page = await openConsole(operator, { locale: "fr-FR" });
  await page.getByRole("button", { name: "Gérer demo" }).click();
  const manage = page.getByTestId("manage");
  await manage.getByLabel("Expéditeur à enregistrer").fill("Boutique");
  await manage.getByRole("button", { name: "Enregistrer l’expéditeur" }).click();
  await eventually(() => manage.getByTestId("registered-senders").textContent(), (t) => t.includes("Boutique"), "l’expéditeur listé");
  const refused = await api(suite.texto, "POST", "/send/simulate", { sms: { message: { text: "Bonjour", pushtype: "alert", sender: "Autre" }, recipients: { gsm: [{ value: "33612345690" }] } } });
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  await manage.getByLabel("Expéditeur à enregistrer").fill("a b");
  await manage.getByRole("button", { name: "Enregistrer l’expéditeur" }).click();
  await manage.getByRole("alert").first().waitFor();
  await assertAccessible(page, "les expéditeurs d’un compte");
  await screenshots(page, "console-senders-fr");
  await manage.getByRole("button", { name: "Supprimer Boutique" }).click();
  await eventually(() => manage.getByTestId("registered-senders").textContent(), (t) => !t.includes("Boutique"), "plus d’expéditeur");
  const free = await api(suite.texto, "POST", "/send/simulate", { sms: { message: { text: "Bonjour", pushtype: "alert", sender: "Autre" }, recipients: { gsm: [{ value: "33612345690" }] } } });
  assert.equal(free.status, 200, JSON.stringify(free.body));
  await page.context().close();
});
