/**
 * The composer's attachments: a chip for each file and image above the message box, the
 * "Attach image" button, and the hook that keeps them per tab and reads images the user
 * pastes, drops or picks. Only the agent's own capabilities decide what is offered.
 */
import './attachments.css';
import { ImagePlus } from 'lucide-react';
import { useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { IMAGE_MIME_TYPES } from '../../../preload/shared/contract-plain';
import type { FileCompletion, ImageMimeType } from '../../../preload/shared/prompt-content';
import {
  attachmentDrafts,
  imageProblem,
  NOTHING,
  USE_MENTION,
  withFile,
  type Attached,
} from '../state/attachments';

let nextImageId = 1;

/** A file's bytes as base64 (the part of a data URL after its comma). */
function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The attachments of tab `key`, kept across tab switches, with the ways to change them. */
export function useAttachments(
  key: string,
  agent: { name: string; acceptsImages: boolean },
  onError: (message: string | undefined) => void,
) {
  const [attached, setState] = useState<Attached>(() => attachmentDrafts.get(key) ?? NOTHING);
  // The latest value, for reads that finish after other changes.
  const now = useRef(attached);
  const set = (next: Attached) => {
    now.current = next;
    attachmentDrafts.set(key, next);
    setState(next);
  };
  const addFile = (path: string) => {
    const next = withFile(now.current, path);
    if (typeof next === 'string') {
      onError(next);
    } else {
      set(next);
    }
  };
  /** Attaches each file that can go as an image, and says why the first other one cannot. */
  const addImages = async (files: readonly File[]) => {
    let problem: string | undefined;
    for (const file of files) {
      const refused = imageProblem(file, now.current, agent);
      if (refused) {
        problem ??= refused;
        continue;
      }
      try {
        const data = await readBase64(file);
        const image = {
          id: nextImageId++,
          name: file.name || 'pasted image',
          mimeType: file.type as ImageMimeType,
          data,
          size: file.size,
        };
        set({ ...now.current, images: [...now.current.images, image] });
      } catch (error) {
        problem ??= `${file.name} could not be read: ${(error as Error).message}`;
      }
    }
    onError(problem);
  };
  /**
   * Files dropped from outside. The page cannot know where a dropped file lives (the browser
   * gives its bytes, not its path), so only images attach; anything else points at `@`.
   */
  const drop = async (files: readonly File[]) => {
    if (files.some((file) => !file.type.startsWith('image/'))) {
      onError(USE_MENTION);
      return;
    }
    await addImages(files);
  };
  return {
    attached,
    set,
    /** A pasted file is attached as an image (or refused), never its name typed in. */
    onPaste(event: ClipboardEvent) {
      const pasted = [...event.clipboardData.files];
      if (pasted.length > 0) {
        event.preventDefault();
        void addImages(pasted);
      }
    },
    onDragOver(event: DragEvent) {
      if (event.dataTransfer.types.includes('Files')) {
        event.preventDefault();
      }
    },
    onDrop(event: DragEvent) {
      if (event.dataTransfer.files.length > 0) {
        event.preventDefault();
        void drop([...event.dataTransfer.files]);
      }
    },
    /** Puts back what a message that failed to send had attached, beside anything added since. */
    restore: (previous: Attached) =>
      set({
        files: [...new Set([...previous.files, ...now.current.files])],
        images: [...previous.images, ...now.current.images],
      }),
    addFile,
    addImages,
    drop,
    removeFile: (path: string) =>
      set({ ...now.current, files: now.current.files.filter((file) => file !== path) }),
    removeImage: (id: number) =>
      set({ ...now.current, images: now.current.images.filter((image) => image.id !== id) }),
  };
}

type ChipsProps = {
  attached: Attached;
  onRemoveFile(path: string): void;
  onRemoveImage(id: number): void;
};

/** A chip for each attachment, each with its remove button. */
export function AttachmentChips({ attached, onRemoveFile, onRemoveImage }: ChipsProps) {
  if (attached.files.length === 0 && attached.images.length === 0) {
    return null;
  }
  return (
    <ul className="attachments" aria-label="Attachments">
      {attached.files.map((path) => (
        <li key={`f:${path}`} className="attachment">
          <span className="attachment-name">@{path}</span>
          <button
            type="button"
            className="attachment-remove"
            aria-label={`Remove @${path}`}
            title="Remove"
            onClick={() => onRemoveFile(path)}
          >
            ×
          </button>
        </li>
      ))}
      {attached.images.map((image) => (
        <li key={`i:${image.id}`} className="attachment attachment-image">
          <img src={`data:${image.mimeType};base64,${image.data}`} alt="" />
          <span className="attachment-name">{image.name}</span>
          <button
            type="button"
            className="attachment-remove"
            aria-label={`Remove image ${image.name}`}
            title="Remove"
            onClick={() => onRemoveImage(image.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** "Attach image": picks image files through the browser's own file dialog. */
export function AttachImageButton({
  disabled,
  onPick,
  compact = false,
}: {
  disabled: boolean;
  onPick(files: File[]): void;
  /** An icon only (named for assistive technology), as the one-line message box has it. */
  compact?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className={compact ? 'icon-button' : undefined}
        disabled={disabled}
        aria-label={compact ? 'Attach image' : undefined}
        title={compact ? 'Attach image' : undefined}
        onClick={() => input.current?.click()}
      >
        {compact ? <ImagePlus size={16} aria-hidden="true" /> : 'Attach image'}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        tabIndex={-1}
        aria-hidden="true"
        accept={IMAGE_MIME_TYPES.join(',')}
        onChange={(event) => {
          onPick([...(event.target.files ?? [])]);
          // The same file can be picked again after its chip is removed.
          event.target.value = '';
        }}
      />
    </>
  );
}

type OptionsProps = {
  id: string;
  optionId(index: number): string;
  paths: readonly string[];
  activeIndex: number;
  onPick(path: string): void;
};

/** The files that fit the `@` mention, as a listbox like the command list (the focus stays in the box). */
export function FileOptions({ id, optionId, paths, activeIndex, onPick }: OptionsProps) {
  return (
    <ul id={id} role="listbox" aria-label="Files" className="command-list file-list">
      {paths.map((path, index) => (
        <li
          key={path}
          id={optionId(index)}
          role="option"
          aria-selected={index === activeIndex}
          data-path={path}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(path)}
        >
          <span className="command-name">@{path}</span>
        </li>
      ))}
    </ul>
  );
}

/** What the file list offers, for a screen reader: how many files, or that none fit. */
export function completionStatus(files: FileCompletion | undefined): string {
  if (!files) {
    return '';
  }
  const count = files.paths.length;
  const some = count === 0 ? 'No files match' : `${count} ${count === 1 ? 'file' : 'files'}`;
  return files.partial ? `${some} (the folder is too large to search whole)` : some;
}
