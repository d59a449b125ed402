ALTER TABLE "meditation_previews" ADD COLUMN "is_free" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The demo catalogue's three free samples (seed/catalogue.json), for databases seeded before the flag existed.
UPDATE "meditation_previews" SET "is_free" = true WHERE "id" IN ('56caee8a-308d-54a0-8287-b87b0ea2930e', '8683dfc9-dfbe-5685-8eef-4e9e9269e0cb', 'b230810e-f246-53fc-9823-bf0e0713ca84');
