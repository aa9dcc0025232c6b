// Installed with page.addInitScript before the renderer loads: puts an object with the
// preload's exact shape on window, talking to the bridge instead of Electron IPC.
// Self-contained on purpose: Playwright serialises this function into the page.

export interface ShimArgs {
  globalName: string;
  commandNames: readonly string[];
  bridgePath: string;
}

export function installApiShim(args: ShimArgs): void {
  const pending = new Map<number, (result: unknown) => void>();
  const listeners = new Set<(event: unknown) => void>();
  const queue: string[] = [];
  let nextId = 1;
  // Bytes as { $bytes: base64 }: see bytesReplacer in server.ts.
  const replacer = function (this: Record<string, unknown>, key: string, value: unknown): unknown {
    const raw = this[key];
    if (!(raw instanceof Uint8Array)) return value;
    let binary = '';
    for (let i = 0; i < raw.length; i += 0x8000) binary += String.fromCharCode(...raw.subarray(i, i + 0x8000));
    return { $bytes: btoa(binary) };
  };
  const reviver = (_key: string, value: unknown): unknown => {
    if (!value || typeof value !== 'object' || typeof (value as { $bytes?: unknown }).$bytes !== 'string') return value;
    const binary = atob((value as { $bytes: string }).$bytes);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
  const socket = new WebSocket(`ws://${location.host}${args.bridgePath}`);
  socket.addEventListener('open', () => {
    for (const text of queue.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (message) => {
    const data = JSON.parse(String(message.data), reviver) as { id?: number; result?: unknown; event?: unknown };
    if (data.event !== undefined) {
      for (const l of listeners) l(data.event);
    } else if (data.id !== undefined) {
      pending.get(data.id)?.(data.result);
      pending.delete(data.id);
    }
  });
  const invoke = (name: string, input: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      const text = JSON.stringify({ id, name, input: input ?? {} }, replacer);
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else queue.push(text);
    });
  const api: Record<string, unknown> = {
    onEvent: (listener: (event: unknown) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  for (const name of args.commandNames) api[name] = (input: unknown) => invoke(name, input);
  Object.defineProperty(window, args.globalName, { value: Object.freeze(api), writable: false });
}
