"""Training: recipes (what to train), the loop, snapshots, the model card, and the lab's job manager.

    recipes.py     tasks, data streams, model shapes, settings; the lab's presets and LabRecipe
    loop.py        batches, initialisation, schedule, loss, train()
    snapshots.py   held-out metrics + the probe sentence's attention during training, bounded store, files
    model_card.py  loss.csv, loss.png, README.md next to a trained model
    lab_run.py     run_lab_recipe(): the one lab code path (train, snapshots, score, save)
    jobs.py        JobManager (shared, queued background jobs); workers.py: the process that trains one
    classify.py    the encoder + [CLS] speech-level classifier

The command line is `python -m transformer_core train` (training/cli.py).
"""
