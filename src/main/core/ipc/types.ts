// What every area's handlers share, kept apart from handlers.ts (which composes the areas)
// so that the area files depend on this leaf and never on each other or on the composition.
import { CodedError } from '@shared/errors';
import type { CommandOutputs, ParsedInput } from '@shared/ipc/index';
import type { CommandName } from '@shared/ipc/names';

/** Handlers for one area of the command map: the input is already parsed by its schema. */
export type AreaHandlers<K extends CommandName> = {
  [P in K]: (input: ParsedInput<P>) => CommandOutputs[P] | Promise<CommandOutputs[P]>;
};

/** The whole command map: every area's handlers together. */
export type Handlers = AreaHandlers<CommandName>;

/** An error a handler throws on purpose, with a stable code and a sentence for the user. */
export class CommandError extends CodedError {}
