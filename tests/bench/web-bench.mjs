// Figures of the web app (a bench, not a test): the .wasm size, the time to interactive on
// /app/, and a 100,000-row CSV imported, validated and simulated in the page.
//   TEXTO_BIN=… TEXTO_WEB_DIR=… node bench/web-bench.mjs      (scripts/bench-web sets them)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startTexto } from "../e2e/server.mjs";
import { launchBrowser } from "../e2e/browser.mjs";

const ROWS = 100_000;
const RUNS = 3;

const webDir = process.env.TEXTO_WEB_DIR;
// The marketing bundle (dist/), the audience's (dist/audience/) and the account area's (dist/account/).
for (const [bundle, dir] of [["marketing", webDir], ["audience", join(webDir, "audience")], ["account area", join(webDir, "account")]]) {
  const wasm = readdirSync(dir).find((f) => f.endsWith(".wasm"));
  const bytes = readFileSync(join(dir, wasm));
  const gz = readFileSync(join(dir, `${wasm}.gz`)).length;
  console.log(`${bundle} .wasm: ${bytes.length} B; gzip -9 ${gzipSync(bytes, { level: 9 }).length} B; served gzipped (zopfli) ${gz} B`);
}

let csv = "Nom;Mobile\r\n";
for (let i = 0; i < ROWS; i++) csv += `Client ${i};06 ${String(10_000_000 + i).replace(/(\d\d)(?=\d)/g, "$1 ")}\r\n`;
const file = { name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(csv, "latin1") };

const texto = await startTexto(["--rate-limit", "0"]);
const browser = await launchBrowser();
try {
  for (let run = 1; run <= RUNS; run++) {
    // Sign-in: from the address to a form that takes a typed email.
    const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" });
    const first = await signedOut.newPage();
    const opened = Date.now();
    await first.goto(`${texto.url}/app/`);
    await first.getByLabel("Email", { exact: true }).fill("someone@example.com");
    const signInReady = Date.now() - opened;
    await signedOut.close();

    // Compose, for someone whose session is open: from the address to the counter answering.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" });
    const session = await context.request.post(`${texto.url}/session`, { headers: { Authorization: `Bearer ${texto.token}` } });
    if (session.status() !== 200) throw new Error(`no session: ${session.status()}`);
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`${texto.url}/app/compose`);
    const message = page.getByLabel("Message", { exact: true });
    await message.fill("Bonjour");
    await page.getByTestId("counter").getByText("7 characters").waitFor();
    const interactive = Date.now() - started;

    await page.getByText("Import a CSV file").click();
    await page.getByLabel("CSV file").setInputFiles(file);
    await page.getByLabel("Phone number column").waitFor();
    const importStart = Date.now();
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByTestId("import-report").waitFor({ timeout: 60_000 });
    const imported = Date.now() - importStart;
    await page.getByTestId("simulation").getByText(`${ROWS.toLocaleString("en-GB")}`).first().waitFor({ timeout: 60_000 });
    const simulated = Date.now() - importStart - imported;
    console.log(
      `run ${run}: sign-in interactive in ${signInReady} ms; Compose interactive in ${interactive} ms; ${ROWS} CSV rows parsed and validated in ${imported} ms, ` +
        `simulated in ${simulated} ms (${imported + simulated} ms together)`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await texto.stop();
}
