// The part of the extension API (`chrome.*`) this extension uses, typed by hand: the project has no
// @types/chrome, and the extension needs only these few members.

declare namespace chrome {
  namespace runtime {
    const id: string;
    interface MessageSender {
      readonly id?: string;
      readonly tab?: { readonly id?: number; readonly windowId?: number };
      readonly url?: string;
      /** The sending page's origin (Chrome 80). */
      readonly origin?: string;
    }
    function getURL(path: string): string;
    function getContexts(filter: { contextTypes: string[] }): Promise<unknown[]>;
    function sendMessage(message: unknown): Promise<unknown>;
    const onMessage: {
      addListener(
        listener: (
          message: unknown,
          sender: MessageSender,
          sendResponse: (response: unknown) => void,
        ) => boolean | void,
      ): void;
    };
  }

  namespace storage {
    interface StorageChange {
      readonly oldValue?: unknown;
      readonly newValue?: unknown;
    }
    const local: {
      get(keys: string | string[] | null): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string | string[]): Promise<void>;
    };
    const session: {
      get(keys: string | string[] | null): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
    };
    const onChanged: {
      addListener(listener: (changes: Record<string, StorageChange>, areaName: string) => void): void;
    };
  }

  namespace alarms {
    interface Alarm {
      readonly name: string;
    }
    function create(name: string, info: { when?: number; delayInMinutes?: number }): Promise<void>;
    function clear(name: string): Promise<boolean>;
    const onAlarm: { addListener(listener: (alarm: Alarm) => void): void };
  }

  namespace offscreen {
    function createDocument(parameters: {
      url: string;
      reasons: string[];
      justification: string;
    }): Promise<void>;
    function closeDocument(): Promise<void>;
  }

  namespace action {
    function setBadgeText(details: { text: string }): Promise<void>;
    function setBadgeBackgroundColor(details: { color: string }): Promise<void>;
    function setTitle(details: { title: string }): Promise<void>;
  }

  namespace tabs {
    interface Tab {
      readonly id?: number;
    }
    function create(properties: { url: string; active?: boolean; windowId?: number }): Promise<Tab>;
    function update(tabId: number, properties: { url: string }): Promise<Tab>;
    function query(filter: { url?: string | string[] }): Promise<Tab[]>;
    function getCurrent(): Promise<Tab | undefined>;
    function remove(tabId: number): Promise<void>;
  }

  namespace sidePanel {
    /** Opens the extension's side panel; only in answer to the tester's gesture (Chrome 116). */
    function open(options: { windowId: number } | { tabId: number }): Promise<void>;
  }

  namespace windows {
    interface Window {
      readonly id?: number;
    }
    function getCurrent(): Promise<Window>;
    function create(options: {
      url: string;
      type?: 'normal' | 'popup';
      width?: number;
      height?: number;
    }): Promise<Window>;
  }

  namespace scripting {
    interface RegisteredContentScript {
      id: string;
      matches: string[];
      js: string[];
      runAt?: 'document_start' | 'document_end' | 'document_idle';
      world?: 'ISOLATED' | 'MAIN';
      persistAcrossSessions?: boolean;
    }
    function registerContentScripts(scripts: RegisteredContentScript[]): Promise<void>;
    function unregisterContentScripts(filter: { ids: string[] }): Promise<void>;
    function executeScript(injection: {
      target: { tabId: number };
      files: string[];
      world?: 'ISOLATED' | 'MAIN';
    }): Promise<unknown[]>;
  }

  namespace permissions {
    /** Host permissions as match patterns (`https://shop.example/*`). */
    interface Origins {
      origins: string[];
    }
    function contains(permissions: Origins): Promise<boolean>;
    /** Asks the tester (the browser's own dialog); only from an extension page, in answer to a click. */
    function request(permissions: Origins): Promise<boolean>;
    const onAdded: { addListener(listener: (permissions: Partial<Origins>) => void): void };
    const onRemoved: { addListener(listener: (permissions: Partial<Origins>) => void): void };
  }
}
