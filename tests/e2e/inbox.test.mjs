// The inbox in Chromium: a campaign, a reply through the SMSC simulator, the reply in the
// inbox with its unread count in the navigation, the conversation's timeline, and an answer
// from the app that reaches the SMSC.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

test("a reply shows in the inbox, unread; it is answered from the app and the answer reaches the SMSC", async () => {
  const number = "33677777777";
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Nouvelle collection", pushtype: "alert" }, recipients: { gsm: [{ value: number }] } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0].status, (s) => s === "Sent", "the campaign sent");
  await eventually(async () => (await api(suite.texto, "POST", "/simulator/mo", { from: number, text: "Avez-vous du 38 ?" })).status, (s) => s === 200, "the reply sent");

  const page = await openApp(suite.browser, suite.texto);
  const inbox = page.getByRole("link", { name: /^Inbox/ });
  await eventually(() => inbox.textContent(), (text) => text.includes("1"), "the unread count in the navigation");
  await inbox.click();
  const row = page.getByRole("row").filter({ hasText: "Avez-vous du 38 ?" });
  await row.waitFor();
  await assertAccessible(page, "the inbox");
  await screenshots(page, "inbox");
  await row.getByRole("link", { name: number }).click();
  const timeline = page.getByTestId("timeline");
  await timeline.getByText("Nouvelle collection").waitFor();
  await timeline.getByText("Avez-vous du 38 ?").waitFor();
  await eventually(() => inbox.textContent(), (text) => !/\d/.test(text), "read once opened");
  await page.getByLabel("Answer").fill("Oui, en bleu et en noir.");
  await page.getByRole("button", { name: "Send the answer" }).click();
  await timeline.getByText("Oui, en bleu et en noir.").waitFor();
  await assertAccessible(page, "a conversation");
  await screenshots(page, "conversation");
  await eventually(
    async () => ((await api(suite.texto, "GET", `/simulator/messages?destination=${number}`)).body.messages ?? []).map((m) => m.text),
    (texts) => texts.includes("Oui, en bleu et en noir."),
    "the answer at the SMSC",
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/inbox" });
  await french.getByRole("heading", { name: "Messagerie" }).waitFor();
  await french.getByRole("row").filter({ hasText: "Avez-vous du 38 ?" }).waitFor();
  await assertAccessible(french, "Messagerie");
  await screenshots(french, "inbox-fr");
  await french.context().close();
});
