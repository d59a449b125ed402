#!/usr/bin/env bash
# Generates guided breathing's soft cues (issue 37, item 1) into src/web/public/sounds/breathing/:
# one short sound per kind of phase, to follow with the eyes closed. A breath in is a soft tone that
# rises, a breath out one that falls, a hold a quiet low note, and the sigh's top-up breath a shorter,
# higher rise. Each is two sines a fifth apart (a soft, round timbre, no harmonics that sting) shaped by
# a smooth swell and an exponential fade, far quieter than the timer's bells: they come every few
# seconds. The service worker precaches them (they are small), so an exercise offline keeps its cues.
# The page schedules them on the Web Audio clock as the timer's bells are (breathing-engine.ts).
#
#   bash scripts/generate-breathing-sounds.sh
# Needs: apt-get install -y sox libsox-fmt-mp3 ffmpeg. The output is the same on every run.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in sox ffmpeg; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Missing $tool. Install with: apt-get install -y sox libsox-fmt-mp3 ffmpeg" >&2
    exit 1
  fi
done

out=src/web/public/sounds/breathing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# cue NAME SECONDS FROM-TO(Hz) ATTACK DECAY — a glide from FROM to TO with its fifth above, a
# raised-cosine swell over ATTACK seconds, then an exponential fade (DECAY: seconds to fall by ~1/e).
cue() {
  local name=$1 seconds=$2 glide=$3 attack=$4 decay=$5
  local from=${glide%-*} to=${glide#*-}
  local fifth_from fifth_to
  fifth_from=$(awk "BEGIN { print $from * 1.5 }")
  fifth_to=$(awk "BEGIN { print $to * 1.5 }")
  sox -V1 -D -n -r 44100 -c 1 "$work/$name-low.wav" synth "$seconds" sine "$from-$to" vol 0.6
  sox -V1 -D -n -r 44100 -c 1 "$work/$name-high.wav" synth "$seconds" sine "$fifth_from-$fifth_to" vol 0.18
  sox -V1 -D -m "$work/$name-low.wav" "$work/$name-high.wav" "$work/$name-raw.wav"
  ffmpeg -nostdin -y -loglevel error -i "$work/$name-raw.wav" \
    -af "volume='if(lt(t,$attack),0.5-0.5*cos(PI*t/$attack),exp(-(t-$attack)/$decay))':eval=frame" "$work/$name-shaped.wav"
  # The tail reaches silence before the file ends; -18 dB peak keeps the cues well under the bells (-3 dB).
  sox -V1 -D "$work/$name-shaped.wav" "$work/$name.wav" fade q 0 "$seconds" 0.3 norm -18
  ffmpeg -nostdin -y -loglevel error -i "$work/$name.wav" -ac 1 -c:a libmp3lame -b:a 48k -id3v2_version 3 \
    -metadata title="breathing $name" -metadata artist="Harbour Mind" "$out/$name.mp3"
  printf '%-12s %5ss\n' "$name.mp3" "$seconds"
}

# Breathe in: rises a whole tone from G4.
cue in 1.6 392-440 0.5 0.45
# Breathe in again (the sigh's top-up): shorter, a step higher.
cue in-again 0.9 440-494 0.2 0.25
# Hold: a quiet low note that does not move.
cue hold 1.2 294-294 0.15 0.35
# Breathe out: falls from A4 to E4, longer and softer at the end.
cue out 2 440-330 0.4 0.6

echo "Done: $(ls "$out" | grep -c mp3) files, $(du -sh "$out" | cut -f1)"
