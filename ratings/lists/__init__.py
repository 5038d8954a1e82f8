"""Published lists, read side: their entries' filters (filters.py), the ranks and filter rows
written once after publication (ranks.py) and the reads of the list pages and the player card
(selectors.py). Importing list files and rendering downloads is the lists app's (lists/)."""
