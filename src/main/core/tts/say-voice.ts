// Picking a Mandarin voice for the `say` package on macOS and Windows, from the voice lists
// those systems print. Pure, so it is tested here without either system.

/** macOS `say -v ?` lines look like `Tingting             zh_CN    # 你好，我叫婷婷。`. */
export function pickMacVoice(listing: string): string | undefined {
  const voices = listing
    .split('\n')
    .map((line) => /^(.+?)\s+([a-z]{2,3}[_-][A-Z]{2})\s+#/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!.trim(), locale: m[2]!.replace('-', '_') }));
  return (voices.find((v) => v.locale === 'zh_CN') ?? voices.find((v) => v.locale.startsWith('zh_')))?.name;
}

/** Windows SAPI voice names, e.g. `Microsoft Huihui Desktop`. */
export function pickWindowsVoice(voices: readonly string[]): string | undefined {
  return voices.find((v) => /huihui|yaoyao|kangkang|xiaoxiao|chinese|zh-cn/i.test(v));
}
