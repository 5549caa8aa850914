import { join } from "node:path";
import { beforeEach } from "node:test";
import { discover, type DiscoverOptions } from "../discovery/discover.js";
import { TrustStore } from "../discovery/trust-store.js";
import { tempFolders, writeFileIn, type TestFolders } from "@harnessx/core/test-support";

/** A test's folders, and the trust store whose file sits in its user folder. */
export interface DiscoveryFolders extends TestFolders {
  store: TrustStore;
}

/**
 * Gives each test of the calling file fresh folders and trust store (filled in before it runs),
 * and the ways to put extension files in them and to discover them.
 */
export function discoveryFixture() {
  const folders = tempFolders("hx-discovery-") as DiscoveryFolders;
  beforeEach(() => {
    folders.store = new TrustStore(join(folders.home, "trust.json"));
  });
  const options = (extra: DiscoverOptions = {}): DiscoverOptions => ({
    cwd: folders.project,
    userDir: folders.home,
    trustStore: folders.store,
    ...extra,
  });
  return {
    folders,
    options,
    run: (extra?: DiscoverOptions) => discover(options(extra)),
    projectFile: (name: string, text: string) =>
      writeFileIn(join(folders.project, ".harnessx", "extensions", name), text),
    userFile: (name: string, text: string) => writeFileIn(join(folders.home, "extensions", name), text),
    /** An extension module that leaves a marker file when it is imported: proof of execution. */
    marking(name: string): { text: string; marker: string } {
      const marker = join(folders.root, `${name}.imported`);
      return {
        marker,
        text: `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "yes");\nexport default { name: ${JSON.stringify(name)}, install() {} };\n`,
      };
    },
  };
}
