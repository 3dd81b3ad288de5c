/** A file posted in a multipart/form-data body (http/multipart.ts), as the write path sees it. */
export interface UploadedFile {
  /** the form field it was sent under */
  field: string;
  /** the client's file name, as sent (only used to name the stored file) */
  filename: string;
  /** the Content-Type the client claimed (never trusted: the bytes are sniffed) */
  contentType: string | null;
  data: Buffer;
}
