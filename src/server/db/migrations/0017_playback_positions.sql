CREATE TABLE "playback_positions" (
	"user_id" text NOT NULL,
	"meditation_id" uuid NOT NULL,
	"position_seconds" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "playback_positions_user_id_meditation_id_pk" PRIMARY KEY("user_id","meditation_id")
);
--> statement-breakpoint
ALTER TABLE "playback_positions" ADD CONSTRAINT "playback_positions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_positions" ADD CONSTRAINT "playback_positions_meditation_id_meditation_previews_id_fk" FOREIGN KEY ("meditation_id") REFERENCES "public"."meditation_previews"("id") ON DELETE cascade ON UPDATE no action;