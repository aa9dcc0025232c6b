/** On-device speech model commands (catalog, download, cancel, delete, use a folder). */
export const MODEL_COMMANDS = [
  'modelList',
  'modelDownload',
  'modelCancel',
  'modelDelete',
  'modelActivate',
  'modelSetSource',
  'modelUseFolder',
] as const;
