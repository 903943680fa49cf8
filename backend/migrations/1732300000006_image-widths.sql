-- Up Migration

-- The widths of the WebP copies made of each image at upload, which the answers offer as srcset
-- so that a phone never downloads the largest copy for a small screen. Empty for the images
-- uploaded before copies were made: those are served as they are.
ALTER TABLE posts
  ADD COLUMN image_widths smallint[] NOT NULL DEFAULT '{}',
  ADD COLUMN thumbnail_widths smallint[] NOT NULL DEFAULT '{}';
ALTER TABLE lolgram_users ADD COLUMN avatar_widths smallint[] NOT NULL DEFAULT '{}';

-- Down Migration

ALTER TABLE lolgram_users DROP COLUMN avatar_widths;
ALTER TABLE posts DROP COLUMN image_widths, DROP COLUMN thumbnail_widths;
