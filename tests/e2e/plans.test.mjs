// Price plans in the web app (issue 25): once the operator puts the account on a plan, Compose's
// in-page simulation charges by it, agrees with the server's, and the send is debited by it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { serveForTests, eventually, openApp } from "./app.mjs";

const suite = serveForTests();

function texto(...args) {
  return execFileSync(process.env.TEXTO_BIN, [...args, "--db", suite.texto.db], { encoding: "utf8" }).trim();
}

test("on a plan, Compose's simulation, the server's and the debit all use its prices", async () => {
  texto("plan", "set", "partner", "--country", "FR=0.5", "--country", "BE=0.75", "--other", "3");
  texto("account", "plan", "demo", "partner");
  // The running texto reads plans each second.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Rendez-vous demain à 10h");
  await page.getByLabel("Recipients", { exact: true }).fill("+33612345678\n+32470123456\n+4915123456789");
  const figures = page.getByTestId("simulation");
  await eventually(() => figures.textContent(), (t) => /Cost4\.25Credits after995\.75/.test(t), "the plan's cost in the page");
  await page.getByRole("button", { name: "Check with server" }).click();
  await page.getByText("The server's simulation gives the same figures.").waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send this campaign?" });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await page.getByTestId("accepted").waitFor();
  await eventually(() => page.getByTestId("credits").textContent(), (t) => t.includes("995.75"), "credits after the send");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
