import { z } from 'zod';
import type { DraftBatchDto, SessionSummary, VoiceMode, VoiceState } from '../domain';
import type { VOICE_COMMANDS } from './voice.names';
import { calendarDate, yuanAmount } from './fields';
import { txType } from './ledger';

const mode = z.enum(['auto', 'pushToTalk', 'keyboard']);
const itemIndex = z.number().int().min(0).max(99);

/** Edits from the confirmation card; they go through the orchestrator like a spoken fix. */
export const draftFieldsSchema = z
  .object({
    amount: yuanAmount.optional(),
    type: txType.optional(),
    category: z.string().trim().min(1).max(20).optional(),
    description: z.string().max(100).optional(),
    date: calendarDate.optional(),
    account: z.string().trim().min(1).max(30).optional(),
    /** A refund: the expense it returns, picked on the card. */
    refundOf: z.string().min(1).max(64).optional(),
    /**
     * A transfer to a person (a 转账 read off a picture) kept as money lent, a debt they owe
     * (true), or as a plain transfer (false): the card cannot tell a gift from a loan.
     */
    lend: z.boolean().optional(),
  })
  .strict();

export type DraftFields = z.output<typeof draftFieldsSchema>;

export const voiceActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('confirmItem'), index: itemIndex }).strict(),
  z.object({ action: z.literal('cancelItem'), index: itemIndex }).strict(),
  z.object({ action: z.literal('editItem'), index: itemIndex, fields: draftFieldsSchema }).strict(),
  z.object({ action: z.literal('confirmAll') }).strict(),
  z.object({ action: z.literal('cancelAll') }).strict(),
  z.object({ action: z.literal('undo') }).strict(),
  z.object({ action: z.literal('restart') }).strict(),
  z.object({ action: z.literal('exit') }).strict(),
]);

export type VoiceAction = z.output<typeof voiceActionSchema>;

export const voiceSchemas = {
  voiceSnapshot: z.object({}).strict(),
  voiceStart: z.object({ mode: mode.optional() }).strict(),
  voiceSetMode: z.object({ mode }).strict(),
  voiceText: z.object({ text: z.string().trim().min(1, '请输入内容').max(2000) }).strict(),
  // endOnSilence: sent by a hotkey whose release cannot be observed (press to start).
  voicePushToTalk: z.object({ action: z.enum(['down', 'up']), endOnSilence: z.boolean().optional() }).strict(),
  voiceAction: voiceActionSchema,
} satisfies Record<(typeof VOICE_COMMANDS)[number], z.ZodType>;

/** What a window needs to draw the session when it opens (then it follows the events). */
export interface VoiceSnapshot {
  state: VoiceState;
  mode: VoiceMode;
  batch: DraftBatchDto | null;
  online: boolean;
  /** What was said this session, oldest first (kept in ENDED, cleared by restart). */
  conversation?: ConversationEntry[];
  /** Set once the session ended (exit words or idle timeout). */
  summary?: SessionSummary | null;
}

export interface ConversationEntry {
  role: 'user' | 'assistant';
  text: string;
  /** Epoch ms. */
  at: number;
}

export interface VoiceOutputs {
  voiceSnapshot: VoiceSnapshot;
  voiceStart: VoiceSnapshot;
  voiceSetMode: VoiceSnapshot;
  voiceText: VoiceSnapshot;
  voicePushToTalk: VoiceSnapshot;
  voiceAction: VoiceSnapshot;
}
