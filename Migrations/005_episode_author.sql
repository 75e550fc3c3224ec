-- podcli schema 5: the author an item names itself (its own itunes:author), which players show
-- as the artist (MPRIS xesam:artist) before the podcast's.
ALTER TABLE episodes ADD COLUMN author TEXT;
