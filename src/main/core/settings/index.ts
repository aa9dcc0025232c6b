export { createSettingsStore, SettingsError, SETTINGS_FILE, type SettingsStore, type SettingsStoreOptions } from './settings-store';
export { unavailableSecretBox, type SecretBox } from './secret-box';
export { testConnection, type ConnectionTestDeps } from './connection-test';
export { voiceConfigFromSettings, type VoiceConfig } from './voice-config';
