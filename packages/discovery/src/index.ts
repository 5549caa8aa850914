// Project and user resources behind trust: extensions discovered in `.harnessx/` folders (a
// project's only once trusted, loaded from the bytes its trust check hashed), skills, slash
// commands, prompt templates and knowledge bundles from files, and the MCP servers configuration
// files name. Built on core's public entries only.
export {
  discover,
  planDiscovery,
  type DiscoverOptions,
  type DiscoveryPlan,
  type DiscoveryResult,
  type ExtensionCandidate,
  type SkippedExtension,
} from "./discovery/discover.js";
export { loadDeclarativeResources, type DeclarativeResources } from "./declarative/declarative-extensions.js";
export {
  MAX_RESOURCE_BYTES,
  resourceFiles,
  type InvalidResource,
  type ResourceKind,
  type ResourceRoot,
} from "./declarative/resource-files.js";
export { loadSkills, SKILL_DESCRIPTION_MAX, SKILL_NAME_MAX, type Skill } from "./declarative/skills.js";
export { LOAD_SKILL_TOOL, skillsExtension } from "./declarative/skills-extension.js";
export { parseFrontmatter, type MarkdownDocument } from "./declarative/frontmatter.js";
export {
  KnowledgeBundle,
  KNOWLEDGE_LIMITS,
  type KnowledgeHit,
  type KnowledgeSource,
} from "./knowledge/knowledge-bundle.js";
export { knowledgeExtension } from "./knowledge/knowledge-extension.js";
export { TrustStore, type TrustInspection, type TrustRecord, type TrustStatus } from "./discovery/trust-store.js";
export { projectDigest, TRUSTED_FILES, TRUSTED_SURFACES } from "./discovery/project-digest.js";
export {
  ProjectPin,
  type PinnedEntry,
  type PinnedFile,
  type PinnedLink,
  type PinnedListing,
} from "./discovery/project-pin.js";
export type { McpConfigFile } from "./discovery/mcp-config.js";
