import { ApiError } from '@atende/sdk';
import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { phrase } from '../../../i18n/phrase';
import { toastError } from '../../../ui/toasts';
import { uploadProblem, type MarkdownImage, type SentAnnex } from './attachmentRules';
import { attachmentStore, type Attachment } from './attachmentStore';
import { IMAGE_ADDRESS_FAILURES, storeImageFromUrl, uploadAttachment } from './upload';

/** A pasted markdown image that cannot be fetched. */
export const MARKDOWN_IMAGE_FAILED = phrase('Não foi possível exibir imagem devido à URL inválida ou à restrições no servidor de origem.');

const cancels = new Map<string, AbortController>();

const isImage = (type: string) => type.startsWith('image/');

/**
 * The unsent attachments of one conversation and what the composer does with them: files checked
 * And uploaded in parallel with progress, pasted markdown images stored from their
 * address by the server, a canned response's stored file attached as is.
 */
export function useAttachments(conversationUuid: string, channelType?: string, channelSettings?: Readonly<Record<string, string>>) {
  const { t } = useTranslation();
  const attachments = useSyncExternalStore(attachmentStore.subscribe, () => attachmentStore.list(conversationUuid));

  const upload = useCallback(
    (id: string, file: File) => {
      const cancel = new AbortController();
      cancels.set(id, cancel);
      attachmentStore.update(conversationUuid, id, { status: 'uploading', progress: 0 });
      uploadAttachment(file, {
        cancel: cancel.signal,
        onProgress: (progress) => attachmentStore.update(conversationUuid, id, { progress }),
      })
        .then((stored) => attachmentStore.update(conversationUuid, id, { status: 'uploaded', progress: 1, annex: stored }))
        // The shared error handler already showed the server's error_message.
        .catch(() => attachmentStore.update(conversationUuid, id, { status: 'failed' }))
        .finally(() => cancels.delete(id));
    },
    [conversationUuid],
  );

  /** Checks each file before upload; refused ones show why and are not attached. */
  const addFiles = useCallback(
    (files: readonly File[]) => {
      for (const file of files) {
        const problem = uploadProblem(file, channelType, channelSettings);
        if (problem) {
          toastError(t(problem.phrase, problem.values));
          continue;
        }
        const id = crypto.randomUUID();
        attachmentStore.add(conversationUuid, {
          id,
          name: file.name,
          contentType: file.type,
          previewUrl: isImage(file.type) ? URL.createObjectURL(file) : null,
          status: 'uploading',
          progress: 0,
          description: '',
          annex: null,
        });
        upload(id, file);
      }
    },
    [conversationUuid, channelType, channelSettings, t, upload],
  );

  /** A pasted markdown image: downloaded and stored by the server, then checked against the channel like any file. */
  const addImageFromUrl = useCallback(
    (image: MarkdownImage) => {
      const id = crypto.randomUUID();
      attachmentStore.add(conversationUuid, {
        id,
        name: image.alt || image.url,
        contentType: 'image/*',
        previewUrl: null,
        status: 'fetching',
        progress: 0,
        description: '',
        annex: null,
      });
      // A chip removed while its image is fetched is forgotten, failure included.
      const wanted = () => attachmentStore.list(conversationUuid).some((a) => a.id === id);
      storeImageFromUrl(image, wanted).then(
        (stored) => {
          if (!wanted()) return;
          const problem = uploadProblem(
            { name: stored.original_filename, size: stored.size, type: stored.content_type },
            channelType,
            channelSettings,
          );
          if (problem) {
            attachmentStore.remove(conversationUuid, [id]);
            toastError(t(problem.phrase, problem.values));
            return;
          }
          attachmentStore.update(conversationUuid, id, {
            name: stored.original_filename,
            contentType: stored.content_type,
            previewUrl: stored.uri,
            status: 'uploaded',
            progress: 1,
            annex: stored,
          });
        },
        (error: unknown) => {
          if (!wanted()) return;
          attachmentStore.remove(conversationUuid, [id]);
          // The address could not be read: the spec's words. Other refusals were shown by the shared handler.
          if (error instanceof ApiError && IMAGE_ADDRESS_FAILURES.includes(error.code)) toastError(t(MARKDOWN_IMAGE_FAILED));
        },
      );
    },
    [conversationUuid, channelType, channelSettings, t],
  );

  /** A file already stored (a canned response's annex): attached without uploading. */
  const addStored = useCallback(
    (annex: SentAnnex) => {
      if (attachmentStore.list(conversationUuid).some((a) => a.annex?.uuid === annex.uuid)) return;
      attachmentStore.add(conversationUuid, {
        id: crypto.randomUUID(),
        name: annex.original_filename,
        contentType: annex.content_type,
        previewUrl: isImage(annex.content_type) ? annex.uri : null,
        status: 'uploaded',
        progress: 1,
        description: '',
        annex,
      });
    },
    [conversationUuid],
  );

  const remove = useCallback(
    (ids: readonly string[]) => {
      for (const removed of attachmentStore.remove(conversationUuid, ids)) {
        cancels.get(removed.id)?.abort();
        if (removed.previewUrl?.startsWith('blob:')) URL.revokeObjectURL(removed.previewUrl);
      }
    },
    [conversationUuid],
  );

  const setDescription = useCallback(
    (id: string, description: string) => attachmentStore.update(conversationUuid, id, { description }),
    [conversationUuid],
  );

  return { attachments, addFiles, addImageFromUrl, addStored, remove, setDescription };
}

export type { Attachment };
