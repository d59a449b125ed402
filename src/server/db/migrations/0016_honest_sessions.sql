DROP INDEX "meditation_sessions_user_completed_idx";--> statement-breakpoint
DROP INDEX "meditation_sessions_user_meditation_idx";--> statement-breakpoint
ALTER TABLE "meditation_sessions" ADD COLUMN "complete" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "meditation_sessions" ADD COLUMN "listened_seconds" integer;--> statement-breakpoint
CREATE INDEX "meditation_sessions_user_completed_idx" ON "meditation_sessions" USING btree ("user_id","completed_at","duration_minutes","complete");--> statement-breakpoint
CREATE INDEX "meditation_sessions_user_meditation_idx" ON "meditation_sessions" USING btree ("user_id","meditation_id") WHERE "meditation_sessions"."meditation_id" is not null and "meditation_sessions"."complete";