/** Small images for the attachment tests. */

/** The smallest PNG: a 1×1 transparent pixel (68 bytes), as base64. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
