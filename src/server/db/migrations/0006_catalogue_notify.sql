-- Every change to the catalogue, whoever makes it (the app, a second process, the CLI, an operator's
-- SQL), tells listening processes to drop their prepared catalogue (catalogue-cache.ts). NOTIFY is
-- delivered at commit, once per transaction for the same payload.
CREATE OR REPLACE FUNCTION hm_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hm_catalogue', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER meditation_previews_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "meditation_previews" FOR EACH STATEMENT EXECUTE FUNCTION hm_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER meditation_content_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "meditation_content" FOR EACH STATEMENT EXECUTE FUNCTION hm_catalogue_changed();
