import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppEvent } from '@shared/events';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import { createDispatch, createHandlers, type Dispatch } from './ipc/handlers';
import type { BookHandlerDeps } from './ipc/book-handlers';
import type { Handlers } from './ipc/types';
import { Books, type OpenBook } from './books/books';
import { LedgerHistory, openLedger, type Ledger } from './ledger/index';
import { applyPendingRestore, LedgerBackups } from './ledger/backups';
import { SyncService, type SyncServiceOptions } from './sync/service';
import type { VoiceMode } from '@shared/domain';
import { budgetAlertDetail, budgetAlertText } from '@shared/budget-text';
import type { ExportFormat } from '@shared/ipc/ledger';
import type { WindowAction } from '@shared/ipc/app';
import type { HotkeyStatus, Microphone } from '@shared/ipc/app-settings';
import { VoiceLedgerPort } from './voice/voice-ledger-port';
import { VoiceSessionManager } from './voice/session';
import { ASR_MODEL_MISSING, buildSessionParts, LocalEngineHolder, type VoiceOverrides } from './voice/wiring';
import { createLocalAsrEngine, type LocalAsrEngine } from './asr/local/index';
import { createModelManager, type CatalogEntry, type ModelManager } from './models/index';
import { createSettingsStore, unavailableSecretBox, voiceConfigFromSettings, type SecretBox, type SettingsStore } from './settings/index';
import { cardReminderText } from '@shared/flow-text';
import { systemClock, type Clock, type TimerHandle } from '@shared/clock';
import { systemNow, type ZonedNow } from '@shared/time';
import { msToNextCheck, offersText } from './recurring-schedule';
import { prepareHomophones } from './nlp/homophones';
import { OcrEngine, ocrSupport, type OcrSupport } from './ocr/engine';
import type { OcrResult } from './ocr/types';

/**
 * The composition root of the main process, without Electron: the shell (src/main/app)
 * and the browser e2e bridge both build the app through this, so the tests exercise the
 * same wiring a user runs.
 */
export interface AppCoreOptions {
  /** Folder holding books.json and the first book's ledger.db (Electron's userData in the app, a temp dir in tests). */
  dataDir: string;
  version: string;
  log?: (message: string, err?: unknown) => void;
  /**
   * Voice session overrides: e2e and tools pass an offline or loopback LLM, an ASR URL,
   * TTS engine 'log', a clock. Anything not given comes from the settings file.
   */
  voice?: VoiceOverrides & { mode?: VoiceMode };
  /** Electron safeStorage in the shell; absent means keys cannot be stored. */
  secretBox?: SecretBox;
  listMicrophones?: () => Promise<Microphone[]>;
  /** The shell's window control (quick entry close, bring main forward). */
  windowAction?: (action: WindowAction) => void;
  /** How the shell's global hotkey ended up working, shown in 设置. */
  hotkeyStatus?: () => HotkeyStatus | null;
  /**
   * Automatic backups into <dataDir>/backups (on by default): `false` turns the daily copy
   * off (the commands still work); `now` and `intervalMs` are for tests.
   */
  backups?: false | { now?: () => Date; intervalMs?: number };
  /** The shell's native folder dialog, for 「使用已有模型文件夹」; null when the user closed it. */
  pickFolder?: () => Promise<string | null>;
  /**
   * On-device speech models, in <dataDir>/models from the built-in catalog unless `modelsDir` or
   * `catalog` say otherwise (e2e serves an archive from a loopback server); `manager` replaces
   * the manager itself (tests). The core disposes it either way.
   */
  models?: { modelsDir?: string; catalog?: readonly CatalogEntry[]; manager?: ModelManager };
  /** The shell's native notification (budget alerts); absent: the windows' banner is the only sign. */
  notify?: (notice: { title: string; body: string }) => void;
  /** The shell's save dialog for exports (see LedgerHandlerDeps.chooseSavePath). */
  chooseSavePath?: (suggestedName: string, format: ExportFormat) => Promise<string | null>;
  /** The shell's open dialog for imports. */
  chooseOpenPath?: () => Promise<string | null>;
  /** The shell's open dialog for a picture (打开图片…). */
  choosePicturePath?: () => Promise<string | null>;
  /**
   * Reading pictures (截图记账): the on-device recognizer unless replaced (tests, e2e), and
   * whether it runs here (ocrSupport() unless replaced).
   */
  ocr?: { support?: () => OcrSupport; recognize?: (bytes: Uint8Array) => Promise<OcrResult> };
  /** Makes the engine for a model folder (tests count and fake it); the sherpa-onnx engine otherwise. */
  createLocalAsrEngine?: (modelDir: string) => LocalAsrEngine;
  /** Sync overrides for tests (a fake clock, an in-memory remote, a cheaper scrypt). */
  sync?: Pick<SyncServiceOptions, 'clock' | 'createRemote' | 'engine' | 'intervalMs' | 'debounceMs'>;
  /**
   * The timers and the local time of the recurring entries' catch-up (tests: a FakeClock and a
   * now read from it). The ledgers take this `now` too, so a rule added through the commands
   * is caught up on the same day the schedule sees.
   */
  recurring?: { clock: Clock; now: () => ZonedNow };
}

export interface AppCore {
  dispatch: Dispatch;
  ledger: Ledger;
  /** The undoable ledger: the LedgerPort for voice saves and every write from the windows. */
  history: LedgerHistory;
  /** The ledger's backups folder: daily copies and the staged restore. */
  backups: LedgerBackups;
  /** Sync with the user's remote (off until set up in 设置 → 同步). */
  sync: SyncService;
  /** The books (账本): ledger, history, backups and sync above are the current book's. */
  books: NonNullable<BookHandlerDeps['books']>;
  /** An open book by id, opened when it is not yet (tests and tools). */
  book(id: string): { ledger: Ledger; history: LedgerHistory };
  settings: SettingsStore;
  /** The voice session behind the voice commands (one orchestrator at a time). */
  voice: VoiceSessionManager;
  /** Subscribe to everything that must reach the windows. */
  onEvent(listener: (event: AppEvent) => void): Unsubscribe;
  emit(event: AppEvent): void;
  dispose(): Promise<void>;
}

/** One open book: its ledger and everything kept per book. */
interface Book extends OpenBook {
  ledger: Ledger;
  history: LedgerHistory;
  backups: LedgerBackups;
  sync: SyncService;
  databasePath: string;
}

/** Throws LedgerOpenError when the ledger file cannot be used (the shell shows it). */
export function createAppCore(options: AppCoreOptions): AppCore {
  const log = options.log ?? ((message, err) => console.error(message, err));
  // A first start (or a data folder chosen by SUIKOUJI_DATA_DIR) may find no folder yet.
  mkdirSync(options.dataDir, { recursive: true });
  const backupOptions = options.backups === false ? {} : (options.backups ?? {});
  const listeners = new Listeners<{ event: (event: AppEvent) => void }>((err) => log('event listener failed', err));
  const emit = (event: AppEvent) => listeners.emit('event', event);
  // Declared before the books whose events check it; set right after.
  let books: Books<Book> | null = null;
  const isCurrent = (id: string) => books === null || books.currentId === id;
  const recurringClock = options.recurring?.clock ?? systemClock;
  const recurringNow = options.recurring?.now ?? (() => systemNow());
  // Every book opened since start: each one's rules keep falling due, current or not.
  const openBooks = new Set<Book>();

  function openBook(id: string, folder: string): Book {
    const databasePath = join(folder, 'ledger.db');
    // A restore chosen in 设置 is applied here, before anything opens the ledger file.
    applyPendingRestore(folder, { log, ...(backupOptions.now ? { now: backupOptions.now } : {}) });
    // A large file is checked after it opens: damage found then stops writes and is told to the windows.
    const ledger = openLedger({
      path: databasePath,
      ...(options.recurring ? { now: options.recurring.now } : {}),
      onDamage: (error) => {
        log(`ledger of book ${id} damaged`, error);
        emit({ channel: 'voice', event: { type: 'error', code: 'ledger_damaged', message: error.message } });
      },
    });
    const backups = new LedgerBackups({ dataDir: folder, source: () => ledger.database, log, ...backupOptions });
    // A damaged ledger is never copied: its copies would push the good ones out of the rotation.
    if (options.backups !== false) {
      void ledger.integrity().then((damage) => {
        if (!damage) void backups.start();
      });
    }
    // Declared before the history that tells it of local changes; built right after it.
    let sync: SyncService | null = null;
    const history = new LedgerHistory(ledger, {
      onChange: (reason) => {
        // A voice card confirmed after a switch writes to its own book: the windows show another.
        if (isCurrent(id)) emit({ channel: 'ledger', event: { type: 'changed', reason } });
        if (reason !== 'sync') sync?.localChange();
      },
      // Whatever made the spending cross (a voice save, the form, an edit), the user hears of it once.
      onBudgetAlert: (alerts) => {
        emit({ channel: 'ledger', event: { type: 'budgetAlert', alerts } });
        for (const alert of alerts) options.notify?.({ title: '预算提醒', body: `${budgetAlertText(alert)}，${budgetAlertDetail(alert)}` });
      },
    });
    sync = new SyncService({
      ledger,
      dataDir: folder,
      secretBox: options.secretBox ?? unavailableSecretBox,
      log,
      onStatus: (status) => {
        // 记账人: the name sync knows this computer by (renamed in 设置 → 同步), else the OS user's.
        ledger.recordedBy = status.deviceName;
        if (isCurrent(id)) emit({ channel: 'sync', event: { type: 'status', status } });
      },
      onRemoteChange: () => history.notify('sync'),
      ...options.sync,
    });
    // Every row this book writes carries this computer's name; each status keeps it current.
    ledger.recordedBy = sync.status().deviceName;
    // Pictures of rows deleted since the last open, or of a save that failed after writing its file.
    try {
      ledger.sweepAttachments();
    } catch (err) {
      log(`sweeping the pictures of book ${id} failed`, err);
    }
    // Only where a remote was set up for this book does this do anything.
    sync.start();
    const book: Book = {
      id,
      ledger,
      history,
      backups,
      sync,
      databasePath,
      async dispose() {
        await sync.dispose();
        // A backup in progress reads through the ledger's connection: let it finish first.
        await backups.dispose();
        ledger.close();
      },
    };
    openBooks.add(book);
    // What fell due while the app was closed (or this book unopened) is made as it opens.
    catchUpRecurring(book);
    return book;
  }

  books = new Books<Book>(options.dataDir, {
    openBook,
    log,
    onChange: (listing, switched) => {
      emit({ channel: 'books', event: { type: 'changed', listing } });
      if (!switched) return;
      const book = books!.current;
      emit({ channel: 'ledger', event: { type: 'changed', reason: 'switch' } });
      emit({ channel: 'sync', event: { type: 'status', status: book.sync.status() } });
      remindCards();
    },
  });
  const current = () => books!.current;
  const settings = createSettingsStore({ dataDir: options.dataDir, secretBox: options.secretBox ?? unavailableSecretBox, log });
  // The voice session writes a card to the book it was spoken in (see BookRoutedPort), and its
  // card reads that book's account balances for the overdraft note.
  const voiceLedger = new VoiceLedgerPort({
    currentId: () => books!.currentId,
    port: (id) => books!.book(id).history,
    balances: (id) => books!.book(id).ledger.accountBalances(),
  });
  const { mode: voiceMode, ...voiceOverrides } = options.voice ?? {};
  const localEngines = new LocalEngineHolder(options.createLocalAsrEngine ?? ((modelDir) => createLocalAsrEngine({ modelDir, log })), log);
  const models =
    options.models?.manager ??
    createModelManager({
      modelsDir: options.models?.modelsDir ?? join(options.dataDir, 'models'),
      ...(options.models?.catalog ? { catalog: options.models.catalog } : {}),
      release: (modelDir) => localEngines.releaseModel(modelDir),
      log,
    });
  const activeModelDir = (): string | null => models.activeModelDir();
  const stopWatchingModels = models.onEvent((event) => {
    // A model switched or deleted: its engine (a loaded model in a worker) goes now.
    if (event.type === 'changed') localEngines.keepOnly(activeModelDir());
    emit({ channel: 'models', event });
  });
  // Voice saves go through the history so the ledger's undo can take them back too.
  const voice = new VoiceSessionManager({
    emit: (event) => {
      // The global hotkey may ask for speech while the window is hidden: the model dialog must be seen.
      if (event.type === 'error' && event.code === ASR_MODEL_MISSING.code) options.windowAction?.({ action: 'showMain' });
      emit({ channel: 'voice', event });
    },
    ...(voiceMode ? { mode: voiceMode } : {}),
    parts: () =>
      buildSessionParts(
        voiceConfigFromSettings(settings.get(), (name) => settings.secret(name), activeModelDir()),
        voiceLedger,
        { log, ...voiceOverrides },
        // The user's own categories and accounts help the LLM and the local rules place words.
        () => ({
          customCategories: books!
            .book(voiceLedger.bookId)
            .ledger.categories()
            .filter((c) => !c.preset && !c.hidden)
            .map(({ name, type }) => ({ name, type })),
          accounts: books!
            .book(voiceLedger.bookId)
            .ledger.accounts()
            .map((a) => a.name),
        }),
        { modelDir: activeModelDir, engine: (modelDir) => localEngines.engine(modelDir) },
      ),
  });
  const stopWatchingSettings = settings.onChange(() => voice.reconfigure());
  // One recognizer for the app: its worker starts with the first picture and stops when idle.
  let ocrEngine: OcrEngine | null = null;
  let support: OcrSupport | null = null;
  const pictures = {
    support: options.ocr?.support ?? (() => (support ??= ocrSupport())),
    recognize: options.ocr?.recognize ?? ((bytes: Uint8Array) => (ocrEngine ??= new OcrEngine()).recognize(bytes)),
    receiptLines: () => settings.get().pictures.receiptLines,
    now: options.recurring?.now ?? voiceOverrides.now ?? (() => systemNow()),
    ...(options.choosePicturePath ? { choosePicturePath: options.choosePicturePath } : {}),
    log,
  };
  const bookCommands = {
    listing: () => books!.listing(),
    create: (name: string, switchTo: boolean) => books!.create(name, switchTo),
    rename: (id: string, name: string) => books!.rename(id, name),
    archive: (id: string, archived: boolean) => books!.archive(id, archived),
    switchTo: (id: string) => books!.switchTo(id),
  };
  // One handler map per open book, made when first used: the commands run against the current book.
  const handlerMaps = new Map<string, Handlers>();
  const handlersFor = (book: Book): Handlers => {
    let handlers = handlerMaps.get(book.id);
    if (!handlers) {
      handlers = createHandlers({
        ledger: book.ledger,
        history: book.history,
        voice,
        appInfo: () => ({ version: options.version, dataDir: options.dataDir, databasePath: book.databasePath, readOnly: book.ledger.readOnly }),
        settings,
        backups: book.backups,
        ...(options.listMicrophones ? { listMicrophones: options.listMicrophones } : {}),
        ...(options.windowAction ? { windowAction: options.windowAction } : {}),
        ...(options.hotkeyStatus ? { hotkeyStatus: options.hotkeyStatus } : {}),
        models,
        sync: book.sync,
        books: bookCommands,
        ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
        ...(options.chooseSavePath ? { chooseSavePath: options.chooseSavePath } : {}),
        ...(options.chooseOpenPath ? { chooseOpenPath: options.chooseOpenPath } : {}),
        pictures,
        pictureSession: voice,
      });
      handlerMaps.set(book.id, handlers);
    }
    return handlers;
  };
  const dispatch = createDispatch(() => handlersFor(current()), log);
  // Credit cards due within three days: told once per card and due date, at start and hourly
  // after (a computer left on over the due day hears of it too).
  function remindCards(): void {
    const ledger = books?.current.ledger;
    if (!ledger || ledger.readOnly) return;
    try {
      for (const r of ledger.cardReminders(3)) options.notify?.({ title: '信用卡还款提醒', body: cardReminderText(r) });
    } catch (err) {
      log('card reminders failed', err);
    }
  }
  remindCards();
  const cardTimer = setInterval(remindCards, 3_600_000);
  cardTimer.unref();

  // Recurring entries (周期记账): every open book catches up as it opens (above), then
  // hourly and just after each local midnight, so a computer left on makes a rule's entry
  // on its day. A catch-up makes each occurrence once however often it runs.
  function catchUpRecurring(book: Book): void {
    if (book.ledger.readOnly) return;
    try {
      const { drafts } = book.history.catchUpRecurring(recurringNow());
      // 提醒确认 rules: the offers wait in 周期记账; the user hears of new ones once, here.
      if (drafts.length > 0) {
        const where = isCurrent(book.id) ? '' : `（账本「${books?.listing().books.find((b) => b.id === book.id)?.name ?? ''}」）`;
        options.notify?.({ title: '周期记账提醒', body: `${offersText(drafts)}${where}，请到「周期记账」确认` });
      }
    } catch (err) {
      log(`recurring catch-up of book ${book.id} failed`, err);
    }
  }
  let recurringTimer: TimerHandle | null = null;
  function scheduleRecurring(): void {
    recurringTimer = recurringClock.setTimeout(() => {
      for (const book of openBooks) catchUpRecurring(book);
      scheduleRecurring();
    }, msToNextCheck(recurringNow()));
  }
  scheduleRecurring();

  // The misheard-word tables and jieba's dictionary take about a second to load: load them while
  // the app is idle after start, not on the first utterance that needs them.
  const understandingWarmUp = setTimeout(() => {
    try {
      prepareHomophones();
    } catch (err) {
      log('preparing the homophone tables failed', err);
    }
  }, 2_000);
  understandingWarmUp.unref();
  return {
    dispatch,
    get ledger() {
      return current().ledger;
    },
    get history() {
      return current().history;
    },
    get backups() {
      return current().backups;
    },
    get sync() {
      return current().sync;
    },
    books: bookCommands,
    book: (id: string) => books!.book(id),
    settings,
    voice,
    emit,
    onEvent: (listener) => listeners.on('event', listener),
    async dispose() {
      clearTimeout(understandingWarmUp);
      clearInterval(cardTimer);
      recurringClock.clearTimeout(recurringTimer);
      stopWatchingSettings();
      stopWatchingModels();
      await voice.dispose();
      await ocrEngine?.close();
      // Downloads stop before the engine goes: a smoke decode may still be loading a model.
      await models.dispose();
      await localEngines.dispose();
      await books!.dispose();
      listeners.clear();
    },
  };
}
