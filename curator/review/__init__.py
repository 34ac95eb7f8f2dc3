"""Review in Label Studio: labeling configs, push (tasks with pre-annotations), pull
(annotations back as label revisions). Curator stays the source of truth for labels."""
