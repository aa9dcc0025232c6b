/** Voice session commands: everything the session panel and quick entry send. */
export const VOICE_COMMANDS = ['voiceSnapshot', 'voiceStart', 'voiceSetMode', 'voiceText', 'voicePushToTalk', 'voiceAction'] as const;
