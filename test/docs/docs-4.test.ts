// One share of the documented examples (see doc-pages.ts).
import { testDocPages } from "./doc-pages.js";

testDocPages(3);
