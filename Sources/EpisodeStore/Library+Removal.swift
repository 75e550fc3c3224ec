extension Library {
    /// Deletes an episode: its rows and its directory, never one without the other.
    ///
    /// The directory is first renamed to a hidden trash name inside the transaction that deletes
    /// the rows. If the transaction fails, it is renamed back; if podcli dies after the commit, the
    /// next `Library` open finishes deleting it.
    public func remove(_ episode: Episode) throws(StoreError) {
        let path = directory(of: episode)
        let trash = episodesDirectory + "/" + Library.trashPrefix + episode.uuid
        let hasDirectory = FileSystem.exists(path)
        do {
            try transaction { () throws(StoreError) in
                try database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
                if hasDirectory { try FileSystem.rename(path, to: trash) }
            }
        } catch {
            if hasDirectory && !FileSystem.exists(path) { try? FileSystem.rename(trash, to: path) }
            throw error
        }
        try FileSystem.removeTree(trash)
    }
}
