import { contribution, defineExtension, type Extension } from "harnessx";

/**
 * Permission confirmation as an extension: a policy that answers `ask` for the named tools, so
 * the run stops `awaiting_approval` and goes on only with the user's decision (`agent.resume`).
 * A policy can only narrow: the user's own rules still apply on top.
 */
export function permissionConfirmation(tools: readonly string[]): Extension {
  return defineExtension({
    name: "confirm",
    contribute: () =>
      contribution("confirm", {
        policies: [
          {
            id: "confirm-changes",
            actions: tools,
            decide: ({ toolCall }) => ({ decision: "ask", reason: `${toolCall.name} changes files: confirm it first` }),
          },
        ],
      }),
  });
}
