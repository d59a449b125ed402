DROP INDEX "waitlist_entries_created_at_idx";--> statement-breakpoint
DROP INDEX "meditation_previews_created_at_idx";--> statement-breakpoint
DROP INDEX "admin_audit_log_created_at_idx";--> statement-breakpoint
DROP INDEX "security_audit_log_created_at_idx";--> statement-breakpoint
DROP INDEX "security_audit_log_event_type_idx";--> statement-breakpoint
DROP INDEX "meditation_sessions_user_completed_idx";--> statement-breakpoint
CREATE INDEX "admin_audit_log_severity_idx" ON "admin_audit_log" USING btree ("severity","created_at");--> statement-breakpoint
CREATE INDEX "waitlist_entries_created_id_idx" ON "waitlist_entries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "security_audit_log_severity_idx" ON "security_audit_log" USING btree ("severity","created_at");--> statement-breakpoint
CREATE INDEX "meditation_previews_created_id_idx" ON "meditation_previews" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_at_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "security_audit_log_created_at_idx" ON "security_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "security_audit_log_event_type_idx" ON "security_audit_log" USING btree ("event_type","created_at");--> statement-breakpoint
CREATE INDEX "meditation_sessions_user_completed_idx" ON "meditation_sessions" USING btree ("user_id","completed_at","duration_minutes");