import { fetchBlob } from '../../app/public';

/**
 * Opens a document the server makes (an invoice, a pick list: a PDF) in a new browser tab, for a
 * toolbar or screen button. The tab is opened before the answer arrives, so that the browser does
 * not block it as a pop-up; when the call is refused the tab closes again and the refusal is thrown
 * to the caller (the error popup has shown it unless the call was `quiet`).
 */
export async function openDocumentInNewTab(path: string, options: Parameters<typeof fetchBlob>[1] = {}): Promise<void> {
  const view = window.open('', '_blank');
  try {
    const file = await fetchBlob(path, options);
    const url = URL.createObjectURL(file.blob);
    if (view) view.location.href = url;
    else window.location.assign(url);
  } catch (error) {
    view?.close();
    throw error;
  }
}
