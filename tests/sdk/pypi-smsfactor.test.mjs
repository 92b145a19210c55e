// The PyPI `smsfactor` wrapper, a client texto did not write, run against a real texto: its
// Python script makes every call the wrapper can make (tests/sdk/pypi_smsfactor.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { startTexto } from "../e2e/server.mjs";

const python = join(process.env.TEXTO_CACHE ?? join(homedir(), ".cache", "texto"), "pyvenv", "bin", "python");

test("the PyPI smsfactor wrapper works against texto with only its base URL changed", async () => {
  const texto = await startTexto();
  try {
    const run = spawnSync(python, ["tests/sdk/pypi_smsfactor.py", texto.url, texto.token], { encoding: "utf8", timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(run.stdout, /all calls passed/);
    assert.equal((run.stdout.match(/^ok /gm) ?? []).length, 17, output);
  } finally {
    await texto.stop();
  }
});
