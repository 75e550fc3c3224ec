#!/usr/bin/env python3
"""A library of many episodes written straight into podcli's own database (Python 3 standard library).

    gen_search_library.py DB [--episodes 1000000] [--feeds 1000] [--transcripts 0] [--seed 3]

DB is a database podcli has created (any `podcli --home H list` makes one); it must be empty. The
episodes are what bench/gen_feeds.py's feeds hold (titles "N: words", descriptions of plain words
from the same vocabulary, so "kraków" is in about half of them and an episode number like "100" in
about 1 in 100), inserted with SQL in one transaction and indexed for search as podcli indexes them,
in a minute or two instead of scale.sh's 40-minute import of a million items over HTTP.

With --transcripts N, the newest N episodes get a transcript of an hour: segments of 30 s, each of
about 75 words (9,000 an hour) from a vocabulary of 20,000 made-up words in Zipf's proportions, plus
"zeppelin" once in one transcript in 50 (a rare word); "nebula" is in nearly every segment — written as podcli
writes them (schema 18): the segments' times and speakers, their texts once per episode as a deflated JSON
array, and the contentless index given each segment's text. Prints the bytes of transcript text written (the
words and spaces).
"""

import argparse
import json
import random
import sqlite3
import sys
import time
import zlib

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gen_feeds import NEWEST, TOPICS, WORDS  # noqa: E402


def episodes(rng, count, feeds):
    date = NEWEST
    for episode_id in range(1, count + 1):
        number = count - episode_id + 1
        title = "%d: %s" % (number, " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))).capitalize())
        description = " ".join(rng.choice(WORDS) for _ in range(rng.randint(25, 45)))
        date -= rng.randint(1, 60)
        yield (episode_id, rng.getrandbits(128).to_bytes(16, "big"), 1 + episode_id % feeds, title,
               "https://example.org/media/%d.mp3" % episode_id, date, date, date, rng.randint(90, 14400) * 1000,
               description)


def vocabulary(rng, size):
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 9))))
    words = sorted(words)
    words[0] = "nebula"  # the most frequent word: in nearly every segment
    cumulative, total = [], 0.0
    for rank in range(size):
        total += 1.0 / (rank + 1)
        cumulative.append(total)
    return words, cumulative


def transcript_rows(rng, episode_ids, rare_every):
    words, cumulative = vocabulary(rng, 20000)
    for index, episode_id in enumerate(episode_ids):
        for segment in range(120):
            text = rng.choices(words, cum_weights=cumulative, k=75)
            if index % rare_every == 0 and segment == 60:
                text[10] = "zeppelin"
            # podcli's rowid: the episode's id times 2^20 plus the segment's place (schema 16).
            yield (episode_id * 1048576 + segment, segment * 30000, segment * 30000 + 30000,
                   "Host" if segment % 2 else "Guest", " ".join(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db")
    parser.add_argument("--episodes", type=int, default=1000000)
    parser.add_argument("--feeds", type=int, default=1000)
    parser.add_argument("--transcripts", type=int, default=0)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    db = sqlite3.connect(args.db, isolation_level=None)
    db.execute("PRAGMA cache_size = -262144")
    started = time.time()
    db.execute("BEGIN")
    if args.episodes:
        db.executemany(
            "INSERT INTO feeds (id, url, title, subscribed_at, episode_count) VALUES (?, ?, ?, ?, 0)",
            ((i, "https://example.org/feeds/%d.xml" % i, "%s Weekly %d" % (rng.choice(TOPICS), i), NEWEST)
             for i in range(1, args.feeds + 1)))
        titles = dict(db.execute("SELECT id, title FROM feeds"))
        rows = list(episodes(rng, args.episodes, args.feeds))
        db.executemany(
            "INSERT INTO episodes (id, uuid, feed_id, title, source_url, created_at, published_at, sort_date,"
            " duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (row[:9] for row in rows))
        db.executemany("INSERT INTO episode_texts (episode_id, description) VALUES (?, ?)",
                       ((row[0], row[9]) for row in rows))
        db.executemany("INSERT INTO episode_search (rowid, title, podcast, description) VALUES (?, ?, ?, ?)",
                       ((row[0], row[3], titles[row[2]], row[9]) for row in rows))
        db.execute("UPDATE feeds SET episode_count = (SELECT count(*) FROM episodes WHERE feed_id = feeds.id)")
        del rows
    if args.transcripts:
        newest = [row[0] for row in db.execute(
            "SELECT id FROM episodes ORDER BY sort_date DESC, id LIMIT ?", (args.transcripts,))]
        text_bytes = 0

        def counted(rows):
            nonlocal text_bytes
            for row in rows:
                text_bytes += len(row[4].encode())
                yield row
        def store(episode_id, texts):
            # Element N of the array is the text of the segment at place N (podcli's TranscriptTexts).
            array = json.dumps(texts, ensure_ascii=False, separators=(",", ":")).encode()
            db.execute("INSERT INTO transcript_texts (episode_id, texts) VALUES (?, ?)",
                       (episode_id, zlib.compress(array, 9)))
        episode_id, texts = None, []
        for rowid, start, end, speaker, text in counted(transcript_rows(rng, newest, 50)):
            if rowid // 1048576 != episode_id:
                if texts:
                    store(episode_id, texts)
                episode_id, texts = rowid // 1048576, []
            texts.append(text)
            db.execute("INSERT INTO transcript_segments (rowid, start_ms, end_ms, speaker) VALUES (?, ?, ?, ?)",
                       (rowid, start, end, speaker))
            # Indexed as podcli indexes a transcript it sets: each segment given to the index with its text.
            db.execute("INSERT INTO transcript_search (rowid, text) VALUES (?, ?)", (rowid, text))
        if texts:
            store(episode_id, texts)
        print("transcript text: %d bytes" % text_bytes)
    db.execute("COMMIT")
    if args.episodes:
        db.execute("INSERT INTO episode_search (episode_search) VALUES ('optimize')")
    print("written in %.0f s" % (time.time() - started), file=sys.stderr)


if __name__ == "__main__":
    main()
