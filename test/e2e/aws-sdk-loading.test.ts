// The recorder is on every agent's path: the AWS SDK behind dataset sync loads on the first sync only
// (dynamic imports), never with the package.
import assert from "node:assert/strict";
import { test } from "node:test";
import { packagesLoadedBy } from "@harnessx/exporters/test-support";

const here = new URL(".", import.meta.url).pathname;

test('import "@harnessx/recorder" (and "harnessx") loads none of the AWS SDK', async () => {
  for (const entry of ["@harnessx/recorder", "harnessx"]) {
    const loaded = await packagesLoadedBy(entry, here);
    assert.ok(loaded.includes("tar-stream"), `${entry}: the watch sees the recorder's own dependencies (bundles)`);
    assert.deepEqual(
      loaded.filter((name) => name.startsWith("@aws-sdk/") || name.startsWith("@smithy/")),
      [],
      entry,
    );
  }
});
