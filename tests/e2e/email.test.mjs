// Invitations and password resets by email, through a real SMTP server the test runs
// (npm's smtp-server) and reads: the owner invites from the Team screen, the link in the
// email is opened and accepted; then "Forgot password?" sends a link that sets a new password.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { serveForTests, assertAccessible, openApp, eventually } from "./app.mjs";

const mails = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk) => (raw += chunk));
    stream.on("end", () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: decoded(raw) });
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const suite = serveForTests(["--smtp-url", `smtp://127.0.0.1:${smtp.server.address().port}`]);
after(() => new Promise((resolve) => smtp.close(resolve)));

/** The body of a single-part message, whatever its transfer encoding. */
function decoded(raw) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  }
  return body;
}

/** The link under `/app/{kind}/` of the newest email to `to` that carries one: texto answers
 * a password reset before its mail leaves, so the mail may come after the answer. */
async function linkSentTo(to, kind) {
  const link = (m) => m.text.match(new RegExp(`https?://\\S+/app/${kind}/\\S+`))?.[0];
  const mail = await eventually(() => mails.findLast((m) => m.to.includes(to) && link(m)), Boolean, `a ${kind} email to ${to}`);
  return link(mail);
}

test("an invitation and a password reset travel by email, and their links work in the app", async () => {
  const owner = await openApp(suite.browser, suite.texto);
  await owner.getByRole("link", { name: "Team" }).click();
  await owner.getByLabel("Email", { exact: true }).fill("lea@example.com");
  await owner.getByLabel("Role", { exact: true }).selectOption("analyst");
  await owner.getByRole("button", { name: "Invite" }).click();
  await owner.getByText("lea@example.com — Analyst").waitFor();
  assert.equal(await owner.getByTestId("invitation-link").count(), 0, "an emailed link is not shown");
  const invitation = await linkSentTo("lea@example.com", "invitation");
  assert.ok(invitation.startsWith(`${suite.texto.url}/app/invitation/`), invitation);
  await owner.context().close();

  const lea = await openApp(suite.browser, suite.texto, { path: new URL(invitation).pathname, token: null });
  await lea.getByLabel("Name").fill("Léa");
  await lea.getByLabel("New password").fill("first long password");
  await lea.getByRole("button", { name: "Join" }).click();
  await lea.getByRole("navigation").waitFor();
  await lea.getByRole("button", { name: "Sign out" }).click();

  await lea.getByText("Forgot password?").click();
  await lea.getByLabel("Email to send the link to").fill("lea@example.com");
  await lea.getByRole("button", { name: "Send me a link" }).click();
  await lea.getByText("a link valid for one hour is on its way").waitFor();
  const reset = await linkSentTo("lea@example.com", "password-reset");
  assert.ok(reset.includes("/app/password-reset/"), reset);
  await lea.goto(reset);
  await lea.getByRole("heading", { name: "Choose a new password" }).waitFor();
  await assertAccessible(lea, "the password reset page");
  await lea.getByLabel("New password").fill("second long password");
  await lea.getByRole("button", { name: "Save the new password" }).click();
  await lea.getByText("Your password is changed").waitFor();
  await lea.goto(`${suite.texto.url}/app/`);
  await lea.getByLabel("Email", { exact: true }).fill("lea@example.com");
  await lea.getByLabel("Password", { exact: true }).fill("second long password");
  await lea.getByRole("button", { name: "Sign in", exact: true }).click();
  await lea.getByRole("navigation").waitFor();
  assert.deepEqual(lea.errors, []);
  await lea.context().close();
});
