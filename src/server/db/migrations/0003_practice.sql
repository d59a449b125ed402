CREATE TABLE "favourites" (
	"user_id" text NOT NULL,
	"meditation_id" uuid NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favourites_user_meditation_uq" UNIQUE("user_id","meditation_id")
);
--> statement-breakpoint
CREATE TABLE "meditation_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"meditation_id" uuid,
	"duration_minutes" integer,
	"client_id" uuid NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meditation_sessions_user_client_uq" UNIQUE("user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "practice_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"show_streaks" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_meditation_id_meditation_previews_id_fk" FOREIGN KEY ("meditation_id") REFERENCES "public"."meditation_previews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meditation_sessions" ADD CONSTRAINT "meditation_sessions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meditation_sessions" ADD CONSTRAINT "meditation_sessions_meditation_id_meditation_previews_id_fk" FOREIGN KEY ("meditation_id") REFERENCES "public"."meditation_previews"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_preferences" ADD CONSTRAINT "practice_preferences_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favourites_user_saved_idx" ON "favourites" USING btree ("user_id","saved_at");--> statement-breakpoint
CREATE INDEX "meditation_sessions_user_completed_idx" ON "meditation_sessions" USING btree ("user_id","completed_at");